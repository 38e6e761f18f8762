import { useProfile } from '../api/get-profile';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });

/** Who the signed-in person is, as the server knows them (GET /api/v2/users/me). */
export function ProfileDetails() {
  const profile = useProfile();
  if (profile === undefined) return <p role="status">Loading…</p>;
  if (profile === null) return <p>Your profile could not be loaded. Reload the page to try again.</p>;
  return (
    <section className="card profile-section" aria-labelledby="details-title">
      <h2 id="details-title">Your details</h2>
      <dl className="details">
        <div>
          <dt>Name</dt>
          <dd>{profile.full_name || <span className="muted">Not given</span>}</dd>
        </div>
        <div>
          <dt>E-mail</dt>
          <dd>{profile.email}</dd>
        </div>
        <div>
          <dt>Member since</dt>
          <dd>{dateFormat.format(new Date(profile.created_at))}</dd>
        </div>
      </dl>
    </section>
  );
}
