// The choices of a job's machine: none yet, then the team's machines with their needles; a
// machine the job names that the list no longer has still shows (`current`).
import type { Machine } from '../api';
import { needles } from '../format';

export function MachineOptions({ machines, current }: { machines: Machine[]; current?: { id: string; name: string } | null }) {
  return (
    <>
      <option value="">Not chosen yet</option>
      {current && !machines.some((machine) => machine.id === current.id) ? <option value={current.id}>{current.name}</option> : null}
      {machines.map((machine) => (
        <option key={machine.id} value={machine.id}>
          {machine.name} ({needles(machine.needles_per_head)})
        </option>
      ))}
    </>
  );
}
