import { type Role, roleDescriptions, roleLabels } from '../types';

/** What the roles on offer may do, next to wherever a role is chosen; `id` names it for
 * `aria-describedby`. */
export function RoleHelp({ id, roles }: { id: string; roles: readonly Role[] }) {
  return (
    <ul id={id} className="role-help">
      {roles.map((role) => (
        <li key={role}>
          <strong>{roleLabels[role]}:</strong> {roleDescriptions[role]}.
        </li>
      ))}
    </ul>
  );
}
