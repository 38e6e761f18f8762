import { useAppConfig } from '@/config/app-config-context';

import { CoreVersion } from './CoreVersion';

export function SiteFooter() {
  const { version } = useAppConfig();
  return (
    <footer className="site-footer">
      <span>Bobbin{version ? ` ${version}` : ''}</span>
      <CoreVersion />
    </footer>
  );
}
