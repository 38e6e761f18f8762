// Who is looking at the library: given by the route, so this feature does not import the teams
// feature.

export interface LibraryAccess {
  /** The current team's public id: its bucket. */
  teamId: string;
  /** Members, admins and owners upload, rename and remove; viewers read. */
  canWrite: boolean;
}
