// GET /api/v2/teams/{id}/threads/export.csv (?low=true: the shopping list). A plain link: the
// browser sends the auth cookie and saves the file under the server's name, with no copy of it
// held in memory.
import { API_BASE, teamPath } from '@/lib/api-client';

export function exportCsvUrl(teamId: string, { low = false }: { low?: boolean } = {}): string {
  return `${API_BASE}${teamPath(teamId, 'threads/export.csv')}${low ? '?low=true' : ''}`;
}
