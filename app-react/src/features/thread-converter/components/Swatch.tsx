/** A colour sample. Decorative: the colour's code or hex is always written next to it. */
export function Swatch({ hex, size = 'md' }: { hex: string; size?: 'sm' | 'md' | 'lg' }) {
  return <span className={`swatch swatch--${size}`} style={{ backgroundColor: hex }} aria-hidden="true" />;
}
