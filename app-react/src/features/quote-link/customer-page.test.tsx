// A quote's customer page (`/q/{token}`) against a stand-in API: the quote read as its PDF lays
// it out, with one option or several; the approval sent with the version read and confirmed; a
// newer version read again when the answer finds one; a decline that needs its reason; the view
// noted once; and a quote already answered or closed offering nothing to do.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';

import { apiError, fakeApi } from '@/test/fake-api';
import { renderPage } from '@/test/render';

import type { CustomerQuote, QuoteOption } from './api';
import { CustomerQuotePage } from './customer-page';

const TOKEN = 'kS8Pn2cX4vQ7tLwE9rYb1mZa6HdJ3fGu0oTiNeRy5Ap';
const QUOTE = `GET /public/quotes/${TOKEN}`;
const VIEWED = `POST /public/quotes/${TOKEN}/viewed`;
const APPROVE = `POST /public/quotes/${TOKEN}/approve`;
const DECLINE = `POST /public/quotes/${TOKEN}/decline`;
const QUESTION = `POST /public/quotes/${TOKEN}/questions`;

/** The PDF's sample (crates/server/src/pdf.rs): 50 polos with a set-up, shirts a piece and digitising once. */
const fifty: QuoteOption = {
  quantity: 50,
  per_piece: '7.12',
  one_off: '45.00',
  design_total: '401.00',
  lines: ['425.00', '60.00'],
  subtotal: '886.00',
  tax: '177.20',
  total: '1063.20',
};
const hundred: QuoteOption = {
  quantity: 100,
  per_piece: '6.40',
  one_off: '45.00',
  design_total: '685.00',
  lines: ['850.00', '60.00'],
  subtotal: '1595.00',
  tax: '319.00',
  total: '1914.00',
};

function aQuote(extra: Partial<CustomerQuote> = {}): CustomerQuote {
  return {
    number: 'Q-0007',
    revision: 2,
    status: 'sent',
    title: 'Café Rosa: 50 polos',
    shop: { name: 'Stitch & Thread', details: '12 Mill Lane, Leeds\n0113 496 0000', logo: true },
    customer: { name: 'Rosa Díaz', company: 'Café Rosa', email: 'rosa@example.com' },
    issued_on: '2026-12-07',
    valid_until: '2027-01-06',
    currency: 'EUR',
    design: { file_name: 'rosa.pes', stitches: 7200, colours: 3, width_mm: 90, height_mm: 60, locations: 2, preview: true },
    options: [fifty, hundred],
    lines: [
      { description: 'Polo shirts', unit_price: '8.50', quantity: null },
      { description: 'Digitising', unit_price: '60.00', quantity: 1 },
    ],
    tax_percent: '20.00',
    notes: 'Delivery in 10 working days from approval.\nPayment: 50% deposit, balance on delivery.',
    answer: null,
    ...extra,
  };
}

const approved = (quote: CustomerQuote): CustomerQuote => ({
  ...quote,
  status: 'approved',
  answer: { kind: 'approved', name: 'Rosa Díaz', po_number: 'PO-77', quantity: 100, at: '2026-12-07T15:30:00Z' },
});

function customer(quote: CustomerQuote) {
  return fakeApi({
    [QUOTE]: () => Response.json({ quote }),
    [VIEWED]: () => new Response(null, { status: 204 }),
  });
}

function openLink() {
  return renderPage(<CustomerQuotePage />, `/q/${TOKEN}`, '/q/:token');
}

/** The text of each row of `table`, its cells joined by " | ". */
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => [...row.children].map((cell) => cell.textContent).join(' | '));

describe("a quote's customer page", () => {
  it('shows the shop, the quote and a column of prices for each quantity offered', async () => {
    customer(aQuote());
    openLink();
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Café Rosa: 50 polos');
    expect(document.title).toBe('Quote Q-0007 from Stitch & Thread');
    const head = screen.getByRole('banner');
    expect(head.textContent).toContain('Stitch & Thread');
    expect(within(head).getByText(/0113 496 0000/).textContent).toBe('12 Mill Lane, Leeds\n0113 496 0000');
    expect(head.textContent).toContain('Quote Q-0007');
    expect(head.textContent).toContain('Issued 7 December 2026');
    expect(head.textContent).toContain('Valid until 6 January 2027');
    expect(head.textContent).toContain('Version 2');

    const design = screen.getByRole('region', { name: 'Design' });
    expect(within(design).getByRole('img', { name: 'Drawing of the design rosa.pes' }).getAttribute('src')).toBe(
      `/api/v2/public/quotes/${TOKEN}/preview.svg`,
    );
    expect(
      within(design)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['rosa.pes', '90 x 60 mm', '7,200 stitches', '3 colours', '2 placements']);

    const prices = screen.getByRole('region', { name: 'Prices' });
    expect(rowsOf(within(prices).getByRole('table', { name: 'Prices for each quantity offered' }))).toEqual([
      ' | 50 pieces | 100 pieces',
      'Price per piece | €7.12 | €6.40',
      'Embroidery | €356.00 | €640.00',
      'Set-up and digitising | €45.00 | €45.00',
      'Polo shirts, €8.50 each | €425.00 | €850.00',
      'Digitising, 1 x €60.00 | €60.00 | €60.00',
      'Subtotal | €886.00 | €1,595.00',
      'Tax (20%) | €177.20 | €319.00',
      'Total | €1,063.20 | €1,914.00',
    ]);
    // On a phone, a card for each quantity, listed as that quantity alone would be.
    const card = within(prices).getByRole('listitem', { name: '100 pieces' });
    expect(rowsOf(within(card).getByRole('table'))).toEqual([
      'Embroidery, 100 pieces at €6.40 | €640.00',
      'Set-up and digitising | €45.00',
      'Polo shirts, 100 x €8.50 | €850.00',
      'Digitising, 1 x €60.00 | €60.00',
      'Subtotal | €1,595.00',
      'Tax (20%) | €319.00',
      'Total | €1,914.00',
    ]);

    expect(screen.getByRole('region', { name: 'Notes' }).textContent).toContain(
      'Delivery in 10 working days from approval.\nPayment: 50% deposit, balance on delivery.',
    );
    const pdf = screen.getByRole('link', { name: /Download PDF/ });
    expect(pdf.getAttribute('href')).toBe(`/api/v2/public/quotes/${TOKEN}/pdf`);
    expect(pdf.getAttribute('target')).toBe('_blank');
    // Several quantities: the customer chooses one.
    expect(screen.getAllByRole('radio').map((radio) => (radio as HTMLInputElement).checked)).toEqual([false, false]);
  });

  it("lists one option's prices as the PDF does, its quantity chosen already", async () => {
    customer(aQuote({ options: [fifty], revision: 1 }));
    openLink();
    const prices = await screen.findByRole('region', { name: 'Prices' });
    expect(rowsOf(within(prices).getByRole('table'))).toEqual([
      'Embroidery, 50 pieces at €7.12 | €356.00',
      'Set-up and digitising | €45.00',
      'Polo shirts, 50 x €8.50 | €425.00',
      'Digitising, 1 x €60.00 | €60.00',
      'Subtotal | €886.00',
      'Tax (20%) | €177.20',
      'Total | €1,063.20',
    ]);
    expect(screen.getByRole('banner').textContent).not.toContain('Version');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: /50 pieces/ }).checked).toBe(true);
  });

  it('sends the approval with the quantity chosen, the name, the order number and the version read, and confirms it', async () => {
    const server = customer(aQuote());
    server.handlers[APPROVE] = () => Response.json({ quote: approved(aQuote()) });
    openLink();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: /100 pieces/ }));
    await user.type(screen.getByLabelText('Your name'), 'Rosa Díaz');
    await user.type(screen.getByLabelText('Order number (optional)'), 'PO-77');
    await user.click(screen.getByRole('button', { name: 'Approve quote' }));

    const answer = screen.getByRole('region', { name: 'Your answer' });
    await waitFor(() =>
      expect(within(answer).getByRole('status').textContent).toBe('Approved by Rosa Díaz on 7 December 2026 for 100 pieces, order PO-77.'),
    );
    expect(server.callsTo(APPROVE)).toEqual([{ revision: 2, quantity: 100, name: 'Rosa Díaz', po_number: 'PO-77' }]);
    expect(within(answer).getByRole('status')).toBe(document.activeElement);
    expect(within(answer).queryByRole('button')).toBeNull();
  });

  it('asks for a quantity and a name before approving', async () => {
    const server = customer(aQuote());
    openLink();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Approve quote' }));
    expect(await screen.findByText('Choose how many pieces.')).toBeTruthy();
    expect(screen.getByText('Type your name to sign the approval.')).toBeTruthy();
    expect(screen.getByLabelText('Your name').getAttribute('aria-invalid')).toBe('true');
    expect(server.callsTo(APPROVE)).toEqual([]);
  });

  it('reads the quote again when the shop made a newer version meanwhile, and says so at the button', async () => {
    const server = customer(aQuote());
    server.handlers[APPROVE] = () => {
      server.handlers[QUOTE] = () => Response.json({ quote: aQuote({ revision: 3, options: [fifty] }) });
      return apiError(409, 'quote_changed', 'The shop has changed this quote since you opened it: please read the new version first.');
    };
    openLink();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: /100 pieces/ }));
    await user.type(screen.getByLabelText('Your name'), 'Rosa Díaz');
    await user.click(screen.getByRole('button', { name: 'Approve quote' }));

    const form = screen.getByRole('button', { name: 'Approve quote' }).closest('form')!;
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'The shop changed this quote since you opened it: please read it again.',
    );
    await waitFor(() => expect(screen.getByRole('banner').textContent).toContain('Version 3'));
    expect(server.callsTo(QUOTE)).toHaveLength(2);
    // The new version is on screen: the shop hears of that too.
    await waitFor(() => expect(server.callsTo(VIEWED)).toEqual([{ revision: 2 }, { revision: 3 }]));
    expect(screen.queryByRole('radio', { name: /100 pieces/ })).toBeNull();
  });

  it('needs a reason to decline, then sends it with the version read', async () => {
    const server = customer(aQuote());
    server.handlers[DECLINE] = () =>
      Response.json({
        quote: aQuote({ status: 'declined', answer: { kind: 'declined', reason: 'Too dear for us.', at: '2026-12-08T09:00:00Z' } }),
      });
    openLink();
    const user = userEvent.setup();
    const decline = await screen.findByRole('button', { name: 'Decline' });
    expect(decline.getAttribute('aria-expanded')).toBe('false');
    await user.click(decline);
    expect(decline.getAttribute('aria-expanded')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Decline quote' }));
    expect(await screen.findByText('Tell the shop why, so they can help.')).toBeTruthy();
    expect(server.callsTo(DECLINE)).toEqual([]);

    await user.type(screen.getByLabelText('Reason for declining'), 'Too dear for us.');
    await user.click(screen.getByRole('button', { name: 'Decline quote' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('You declined this quote: Too dear for us.'));
    expect(server.callsTo(DECLINE)).toEqual([{ revision: 2, reason: 'Too dear for us.' }]);
  });

  it('sends a question, and says the shop will answer by e-mail', async () => {
    const server = customer(aQuote());
    server.handlers[QUESTION] = () => new Response(null, { status: 204 });
    openLink();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Ask a question' }));
    await user.type(screen.getByLabelText('Your question'), 'Can you do navy polos?');
    await user.click(screen.getByRole('button', { name: 'Send question' }));
    expect((await screen.findByRole('status')).textContent).toBe('Sent: the shop will answer by e-mail.');
    expect(server.callsTo(QUESTION)).toEqual([{ name: '', message: 'Can you do navy polos?' }]);
    expect(screen.getByLabelText<HTMLTextAreaElement>('Your question').value).toBe('');
  });

  it('notes the view once, with the version on screen', async () => {
    const server = customer(aQuote());
    // As src/main.tsx renders the app: React runs each effect twice on mounting.
    renderPage(
      <StrictMode>
        <CustomerQuotePage />
      </StrictMode>,
      `/q/${TOKEN}`,
      '/q/:token',
    );
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(server.callsTo(VIEWED)).toEqual([{ revision: 2 }]));
    // Typing in a form renders the page again, and notes nothing more.
    await userEvent.setup().type(screen.getByLabelText('Your name'), 'Rosa');
    expect(server.callsTo(VIEWED)).toEqual([{ revision: 2 }]);
  });

  it('shows an approved quote with its approval and the quantity chosen, and nothing to do', async () => {
    customer(approved(aQuote()));
    openLink();
    const answer = await screen.findByRole('region', { name: 'Your answer' });
    expect(within(answer).getByRole('status').textContent).toBe('Approved by Rosa Díaz on 7 December 2026 for 100 pieces, order PO-77.');
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    const table = screen.getByRole('table', { name: 'Prices for each quantity offered' });
    expect(within(table).getByRole('columnheader', { name: '100 pieces Chosen' })).toBeTruthy();
  });

  it.each([
    ['expired', aQuote({ status: 'expired' }), 'This quote expired on 6 January 2027. Ask the shop for a new one.'],
    ['taken back to a draft', aQuote({ status: 'draft' }), 'The shop is revising this quote. You can answer it once they send it again.'],
  ])('says where a quote %s stands, with nothing to do', async (_name, quote, standing) => {
    customer(quote);
    openLink();
    const answer = await screen.findByRole('region', { name: 'Your answer' });
    expect(within(answer).getByRole('status').textContent).toBe(standing);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows a link withdrawn while the page was open as a plain page', async () => {
    const server = customer(aQuote());
    server.handlers[APPROVE] = () => {
      server.handlers[QUOTE] = () => apiError(410, 'link_revoked', 'The shop has withdrawn this quote. Ask them for a new link.');
      return apiError(410, 'link_revoked', 'The shop has withdrawn this quote. Ask them for a new link.');
    };
    openLink();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: /50 pieces/ }));
    await user.type(screen.getByLabelText('Your name'), 'Rosa Díaz');
    await user.click(screen.getByRole('button', { name: 'Approve quote' }));
    expect((await screen.findByRole('heading', { level: 1, name: 'This quote was withdrawn' })).textContent).toBeTruthy();
    expect(screen.getByText('The shop has withdrawn this quote. Ask them for a new link.')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    expect(document.title).toBe('This quote was withdrawn');
  });
});
