// How a screen of this feature selects a team. Selecting also saves the team as the profile's
// default, which is the profile feature's: the app (app/root.tsx) provides the whole action
// here, so this feature does not reach into that one.
import { createContext, use } from 'react';

export type SelectTeam = (publicId: string) => Promise<void>;

export const SelectTeamContext = createContext<SelectTeam | null>(null);

/** The app's team selection; throws outside the app's root, where there is none. */
export function useSelectTeam(): SelectTeam {
  const select = use(SelectTeamContext);
  if (!select) throw new Error('useSelectTeam needs the SelectTeamContext of the app root');
  return select;
}
