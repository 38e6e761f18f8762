import { Link } from 'react-router';

import { pageTitle, paths } from '@/config/paths';
import { useAuthState } from '@/lib/auth';

const FEATURES = [
  {
    title: 'Thread inventory',
    text: 'Every spool and cone your team owns, by brand, colour and shelf, with a shopping list of what runs low.',
  },
  {
    title: 'Thread converter',
    text: 'The closest match in another brand, with an honest measure of how close it is. Works offline.',
    link: { to: paths.threadConverter, text: 'Open the thread converter' },
  },
  {
    title: 'Machines',
    text: 'Heads, hoops and speeds of each machine, and the maintenance that is due next.',
  },
  {
    title: 'Pricing calculator',
    text: 'A defensible price in seconds, from a design file or a stitch count, with your own rates.',
  },
] as const;

export function LandingPage() {
  const signedIn = useAuthState().status === 'signed-in';
  return (
    <>
      <title>{pageTitle('Home')}</title>
      <section className="hero" aria-labelledby="hero-title">
        <h1 id="hero-title" className="hero__title">
          Every spool, machine and quote in one place
        </h1>
        <p className="hero__lead">
          Bobbin is the workroom companion for machine embroidery: know what thread you own, find the closest match across brands, keep your
          machines serviced and price a job in seconds, on the phone in your hand.
        </p>
        <div className="hero__actions">
          {signedIn ? (
            <Link className="button button--primary button--large" to={paths.dashboard}>
              Open your dashboard
            </Link>
          ) : (
            <>
              <Link className="button button--primary button--large" to={paths.register}>
                Start free: create your team
              </Link>
              <Link className="button button--large" to={paths.login}>
                Log in
              </Link>
            </>
          )}
        </div>
      </section>
      <section className="features" aria-label="What Bobbin does">
        {FEATURES.map((feature) => (
          <article key={feature.title} className="card feature">
            <h2 className="feature__title">{feature.title}</h2>
            <p>{feature.text}</p>
            {'link' in feature && <Link to={feature.link.to}>{feature.link.text}</Link>}
          </article>
        ))}
      </section>
      <p className="landing__teams">Built for teams: a hobbyist alone, or a shop of twenty sharing one stock room.</p>
    </>
  );
}
