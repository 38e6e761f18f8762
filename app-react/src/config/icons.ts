/**
 * Every icon the app uses, by Lucide name; `/test/vector` shows each at every size, and the
 * service worker precaches each (app-react/build.mjs), so they show offline too.
 */
export const iconNames = ['menu', 'chevron-down', 'wifi-off', 'refresh-cw'] as const;
