import { myDataUrl } from '../api/account';

/** The person's own data as one JSON file (docs/behaviour.md, "Your account and your data"). */
export function MyData() {
  return (
    <section className="card profile-section" aria-labelledby="my-data-title">
      <h2 id="my-data-title">Your data</h2>
      <p>
        Download what Bobbin keeps about you: your details, your teams and roles, your own settings, your authenticator apps and sessions
        (without their secrets) and the invites you sent and received, as one JSON file.
      </p>
      <a className="button" href={myDataUrl} download>
        Download my data
      </a>
    </section>
  );
}
