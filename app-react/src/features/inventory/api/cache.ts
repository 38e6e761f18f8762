// The keys of the inventory's cached reads. Keys start with the team, so one team's entries
// never show under another's name.

/** Every cached read of `teamId`'s threads (lists and entries): what thread writes refresh. */
export const threadsKey = (teamId: string) => ['inventory', teamId, 'threads'] as const;

/** Every cached read of `teamId`'s machines. */
export const machinesKey = (teamId: string) => ['inventory', teamId, 'machines'] as const;
