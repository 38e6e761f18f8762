import { teamExportUrl } from '../api/export-team';
import type { Team } from '../types';

/**
 * The team's data as one archive (admins and owners; docs/behaviour.md, "A team's data"): the
 * thread inventory as CSV, which the thread import reads back, and the machines with their logs,
 * quotes, settings and members as JSON.
 */
export function TeamData({ team }: { team: Team }) {
  return (
    <section className="card profile-section" aria-labelledby="team-data-title">
      <h2 id="team-data-title">The team&apos;s data</h2>
      <p>
        Download everything {team.name} keeps as one zip file: the threads as a CSV file that Import CSV reads back into any team, and the
        machines with their maintenance logs, the saved quotes, the settings and the members as JSON files.
      </p>
      <a className="button" href={teamExportUrl(team.public_id)} download>
        Download the team&apos;s data
      </a>
    </section>
  );
}
