import { pageTitle } from '@/config/paths';
import { ContactForm } from '@/features/contact/components/ContactForm';
import { useProfile } from '@/features/profile/api/get-profile';

/** `/contact`: a message to the people who run this Bobbin server, from the signed-in person. */
export function ContactPage() {
  const profile = useProfile();
  return (
    <div className="contact-page">
      <title>{pageTitle('Contact')}</title>
      <h1>Contact</h1>
      <p className="muted">A question, a problem or an idea? Write to the people who run this Bobbin server.</p>
      <ContactForm name={profile?.full_name ?? ''} email={profile?.email ?? ''} />
    </div>
  );
}
