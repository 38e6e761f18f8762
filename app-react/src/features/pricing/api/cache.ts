/** Every saved-quote read of a team; a write invalidates them all. */
export const quotesKey = (teamId: string) => ['pricing', teamId, 'quotes'] as const;
