import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { apiError, fakeApi } from '@/test/fake-api';
import { renderPage } from '@/test/render';

import { ContactForm } from './components/ContactForm';

afterEach(() => {
  vi.unstubAllGlobals();
});

// The issue: "a contact page ... with a form (name, e-mail filled in for a signed-in person,
// subject, message) that sends the message to the operator's address ...; the page says how
// else to reach them when none is set ...; clear errors and a confirmation".
describe('the contact form', () => {
  it('is filled in with the person, sends the message and confirms it', async () => {
    const server = fakeApi({
      'GET /contact': () => Response.json({ available: true }),
      'POST /contact': () => Response.json({ sent: true }, { status: 202 }),
    });
    renderPage(<ContactForm name="Ada Lovelace" email="ada@example.com" />, '/contact');

    expect(await screen.findByLabelText('Your name')).toHaveProperty('value', 'Ada Lovelace');
    expect(screen.getByLabelText('Your e-mail address')).toHaveProperty('value', 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Subject'), 'Pricing caps');
    await userEvent.type(screen.getByLabelText('Message'), 'How do I price a cap?');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));

    expect(await screen.findByRole('status')).toHaveProperty(
      'textContent',
      'Thank you: your message is on its way. The answer will come to ada@example.com.',
    );
    expect(server.callsTo('POST /contact')).toEqual([
      { name: 'Ada Lovelace', email: 'ada@example.com', subject: 'Pricing caps', message: 'How do I price a cap?' },
    ]);
    // Ready for another message.
    expect(screen.getByLabelText('Subject')).toHaveProperty('value', '');
  });

  it('says what is missing before sending, and shows what the server refused by field', async () => {
    const server = fakeApi({
      'GET /contact': () => Response.json({ available: true }),
      'POST /contact': () =>
        apiError(422, 'validation_failed', 'some fields are not valid', {
          fields: [{ field: 'email', code: 'invalid_email', message: 'That is not an e-mail address.' }],
        }),
    });
    renderPage(<ContactForm name="" email="nope" />, '/contact');

    await userEvent.click(await screen.findByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Please give your name.')).toBeTruthy();
    expect(screen.getByText('Please give a subject.')).toBeTruthy();
    expect(screen.getByText('Please write a message.')).toBeTruthy();
    expect(server.callsTo('POST /contact')).toEqual([]);

    await userEvent.type(screen.getByLabelText('Your name'), 'Ada');
    await userEvent.type(screen.getByLabelText('Subject'), 'Hi');
    await userEvent.type(screen.getByLabelText('Message'), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('That is not an e-mail address.')).toBeTruthy();
    expect(screen.getByLabelText('Your e-mail address').getAttribute('aria-invalid')).toBe('true');
  });

  it('shows a refusal where the person is looking, in plain words', async () => {
    fakeApi({
      'GET /contact': () => Response.json({ available: true }),
      'POST /contact': () =>
        apiError(429, 'rate_limited', 'You sent a message a moment ago. Please wait two minutes before sending another.'),
    });
    renderPage(<ContactForm name="Ada" email="ada@example.com" />, '/contact');
    await userEvent.type(await screen.findByLabelText('Subject'), 'Again');
    await userEvent.type(screen.getByLabelText('Message'), 'Hello again');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You sent a message a moment ago. Please wait two minutes before sending another.',
    );
  });

  it('says how else to reach the operator when the server has no contact address', async () => {
    fakeApi({ 'GET /contact': () => Response.json({ available: false }) });
    renderPage(<ContactForm name="Ada" email="ada@example.com" />, '/contact');
    expect(await screen.findByText(/no contact address set up/)).toBeTruthy();
    expect(screen.getByText(/ask the person who runs Bobbin/)).toBeTruthy();
    // Issue 52: "A server with no contact address shows what the operator must set."
    expect(screen.getByText(/If you run this server: set/).textContent).toBe(
      'If you run this server: set BOBBIN_CONTACT_EMAIL (or --contact-email) to the address that should receive these messages, and restart it.',
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Send message' })).toBeNull());
  });
});
