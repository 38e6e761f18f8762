/**
 * A full edit refused with 409 edit_conflict: the server's message, and a Reload that shows the
 * other person's change (the form then starts again from the new version).
 */
export function ConflictAlert({ message, onReload }: { message: string | null; onReload: () => void }) {
  if (!message) return null;
  return (
    <div role="alert" className="form-alert">
      <p>{message}</p>
      <button type="button" className="button" onClick={onReload}>
        Reload
      </button>
    </div>
  );
}
