// The team's thread-usage setting (docs/behaviour.md, "Thread usage"): the model that gives a
// design's thread, which the pricing calculator prices and a job's run sheet counts from, and
// the unit the team counts thread in. Read by the calculator, the jobs and the team settings.

/** The team setting holding the model's factors, the waste and the unit. */
export const THREAD_USAGE = 'thread_usage';

export type LengthUnit = 'metres' | 'yards';

/** Metres in a yard (bobbin_core::design::METRES_PER_YARD). */
export const METRES_PER_YARD = 0.9144;

/** The team's unit, from its `thread_usage` setting (metres unless it says yards). */
export function lengthUnit(setting: unknown): LengthUnit {
  return typeof setting === 'object' && setting !== null && 'unit' in setting && setting.unit === 'yards' ? 'yards' : 'metres';
}

const twoDecimals = new Intl.NumberFormat('en', { maximumFractionDigits: 2, minimumFractionDigits: 2 });
const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

/** A length of thread given in metres, in the team's unit: "8.80 m", "1,204 yd" (whole units from
 * 100 on). */
export function formatLength(metres: string | number, unit: LengthUnit): string {
  const value = unit === 'yards' ? Number(metres) / METRES_PER_YARD : Number(metres);
  const text = Math.abs(value) >= 100 ? whole.format(value) : twoDecimals.format(value);
  return `${text} ${unit === 'yards' ? 'yd' : 'm'}`;
}
