// GET /api/v2/teams/{id}/export: the team's data as one zip archive (admins and owners). A plain
// link: the browser sends the auth cookie and saves the file under the server's name.
import { API_BASE, teamPath } from '@/lib/api-client';

export function teamExportUrl(teamId: string): string {
  return `${API_BASE}${teamPath(teamId, 'export')}`;
}
