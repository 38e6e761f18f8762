//! A customer's quote as a PDF: A4, the same content as the customer's page, drawn with krilla in
//! `DejaVuSans.ttf` and its bold (in `assets/fonts/` with their licence; krilla embeds only the
//! glyphs used).
//!
//! It is made in two steps. [`layout`] places every line of text, rule and drawing on its page,
//! measuring text with the shaper krilla draws it with, so that wrapping and right alignment are
//! exact; [`paint`] then draws those pages. Everything stays within 180 x 250 mm inside 15 mm
//! margins, so the A4 page also prints on US Letter. Text that does not fit a page flows onto the
//! next, under a small "Q-0007, continued".

use anyhow::Context as _;
use bobbin_core::colour::Rgb8;
use bobbin_core::design::{NEUTRALS, Preview, PreviewBlock};
use bobbin_core::quote::{ExtraLine, OptionPrice, QuoteStatus, money};
use krilla::color::rgb;
use krilla::error::KrillaError;
use krilla::geom::{Path, PathBuilder, Point, Size, Transform};
use krilla::image::Image;
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::paint::{Fill, LineCap, LineJoin, Stroke};
use krilla::surface::Surface;
use krilla::text::{Font, TextDirection};
use krilla::{Data, Document};
use rust_decimal::Decimal;
use time::Date;

use crate::repo::quotes::{Answer, CustomerQuote, QuoteDesign};

const REGULAR_FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");
const BOLD_FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans-Bold.ttf");

/// Points in a millimetre.
const MM: f32 = 72.0 / 25.4;
const PAGE_WIDTH: f32 = 210.0 * MM;
const PAGE_HEIGHT: f32 = 297.0 * MM;
const LEFT: f32 = 15.0 * MM;
const TOP: f32 = 15.0 * MM;
const WIDTH: f32 = 180.0 * MM;
const RIGHT: f32 = LEFT + WIDTH;
/// The foot of the content area, 250 mm below its top: where the page numbers stand.
const FOOT: f32 = TOP + 250.0 * MM;
/// Where flowing content stops, above the page numbers.
const BOTTOM: f32 = FOOT - 16.0;
/// The side of the square the design's drawing is fitted into, its aspect kept.
const PREVIEW_SIZE: f32 = 50.0 * MM;
/// The largest the logo is drawn, its aspect kept.
const LOGO_WIDTH: f32 = 60.0 * MM;
const LOGO_HEIGHT: f32 = 22.0 * MM;
/// The width of the head's right column (the quote's number and dates).
const HEAD_RIGHT_WIDTH: f32 = 60.0 * MM;
/// The space between a table's columns.
const GUTTER: f32 = 10.0;

const INK: Rgb8 = Rgb8::new(0x1c, 0x19, 0x17);
const MUTED: Rgb8 = Rgb8::new(0x57, 0x53, 0x4e);
const RULE: Rgb8 = Rgb8::new(0xa8, 0xa2, 0x9e);

/// The quote as a PDF: A4, the same content as the customer's page.
///
/// `preview` is the design's drawing, `logo` the shop's logo as PNG or JPEG bytes: a logo that
/// cannot be read is left out, never a reason to fail.
///
/// # Errors
///
/// Only if the embedded fonts cannot be read or krilla cannot write the document: a bug, not a
/// matter of the quote's content.
pub fn quote_pdf(
    quote: &CustomerQuote,
    preview: Option<&Preview>,
    logo: Option<&[u8]>,
) -> anyhow::Result<Vec<u8>> {
    let fonts = Fonts::load()?;
    let logo = logo.and_then(read_logo);
    let render = |logo: Option<&Image>| {
        let pages = layout(quote, &fonts, preview, logo.map(Image::size));
        paint(&pages, &fonts, preview, logo, &format!("Quote {}", quote.number))
    };
    match render(logo.as_ref()) {
        // krilla decodes images only when it writes the file.
        Err(error) if logo.is_some() && is_image_error(&error) => render(None),
        result => result,
    }
}

/// The widest and tallest logo drawn, in pixels: a small file can claim a vast picture, which
/// would be decoded in full when the PDF is written.
const LOGO_MAX_PIXELS: u32 = 4_000;

/// The logo, if its bytes start as a PNG or a JPEG does, its header reads, and it is at most
/// [`LOGO_MAX_PIXELS`] each way.
fn read_logo(bytes: &[u8]) -> Option<Image> {
    let data = Data::from(bytes.to_vec());
    let image = if bytes.starts_with(b"\x89PNG") {
        Image::from_png(data, true).ok()
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        Image::from_jpeg(data, true).ok()
    } else {
        None
    }?;
    let (width, height) = image.size();
    (width <= LOGO_MAX_PIXELS && height <= LOGO_MAX_PIXELS).then_some(image)
}

fn is_image_error(error: &anyhow::Error) -> bool {
    matches!(error.downcast_ref::<KrillaError>(), Some(KrillaError::Image(..)))
}

// Fonts and text.

/// A typeface: krilla's font to draw with, and a face for rustybuzz, the shaper krilla's
/// `draw_text` uses, to measure with.
struct Typeface {
    font: Font,
    shaper: rustybuzz::Face<'static>,
}

impl Typeface {
    fn load(data: &'static [u8]) -> anyhow::Result<Self> {
        let font = Font::new(Data::from(data), 0).context("reading the PDF font")?;
        let shaper = rustybuzz::Face::from_slice(data, 0).context("reading the PDF font")?;
        Ok(Self { font, shaper })
    }

    /// The width of `text` at `size`, shaped as krilla shapes it (left to right: see [`draw`]).
    fn width(&self, text: &str, size: f32) -> f32 {
        let mut buffer = rustybuzz::UnicodeBuffer::new();
        buffer.push_str(text);
        buffer.guess_segment_properties();
        buffer.set_direction(rustybuzz::Direction::LeftToRight);
        let shaped = rustybuzz::shape(&self.shaper, &[], buffer);
        let units: i64 = shaped.glyph_positions().iter().map(|glyph| i64::from(glyph.x_advance)).sum();
        float(units) * size / float(self.shaper.units_per_em().max(1))
    }
}

struct Fonts {
    regular: Typeface,
    bold: Typeface,
}

impl Fonts {
    fn load() -> anyhow::Result<Self> {
        Ok(Self { regular: Typeface::load(REGULAR_FONT)?, bold: Typeface::load(BOLD_FONT)? })
    }

    fn face(&self, style: Style) -> &Typeface {
        if style.bold { &self.bold } else { &self.regular }
    }

    fn width(&self, text: &str, style: Style) -> f32 {
        self.face(style).width(text, style.size)
    }

    /// `style`, made smaller if `text` would be wider than `width` in it: for lines that must
    /// stay one line (amounts, the quote's number).
    fn fit(&self, text: &str, style: Style, width: f32) -> Style {
        let natural = self.width(text, style);
        if natural <= width { style } else { Style { size: style.size * width / natural, ..style } }
    }

    /// `text` in lines no wider than `width`: broken at spaces, and inside a word only when the
    /// word alone is wider. Each of the author's line breaks starts a line; empty lines stay.
    fn wrap(&self, text: &str, style: Style, width: f32) -> Vec<String> {
        let space = self.width(" ", style);
        let mut lines = Vec::new();
        for paragraph in text.lines() {
            let (mut line, mut line_width) = (String::new(), 0.0);
            for word in paragraph.split_whitespace() {
                let word_width = self.width(word, style);
                if !line.is_empty() && line_width + space + word_width <= width {
                    line.push(' ');
                    line.push_str(word);
                    line_width += space + word_width;
                    continue;
                }
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                if word_width <= width {
                    (line, line_width) = (word.to_owned(), word_width);
                } else {
                    (line, line_width) = self.break_word(word, style, width, &mut lines);
                }
            }
            lines.push(line);
        }
        lines
    }

    /// Breaks a word wider than `width` between characters, pushing each full line to `lines`;
    /// answers the last piece and its width.
    fn break_word(&self, word: &str, style: Style, width: f32, lines: &mut Vec<String>) -> (String, f32) {
        let (mut piece, mut piece_width) = (String::new(), 0.0);
        let mut buffer = [0; 4];
        for character in word.chars() {
            let character_width = self.width(character.encode_utf8(&mut buffer), style);
            if !piece.is_empty() && piece_width + character_width > width {
                lines.push(std::mem::take(&mut piece));
                piece_width = 0.0;
            }
            piece.push(character);
            piece_width += character_width;
        }
        (piece, piece_width)
    }
}

/// How a line of text looks.
#[derive(Debug, Clone, Copy)]
struct Style {
    size: f32,
    bold: bool,
    muted: bool,
}

impl Style {
    fn line_height(self) -> f32 {
        self.size * 1.35
    }
}

const BODY: Style = Style { size: 9.5, bold: false, muted: false };
const STRONG: Style = Style { bold: true, ..BODY };
const SMALL: Style = Style { size: 8.0, bold: false, muted: true };
const DETAILS: Style = Style { size: 9.0, bold: false, muted: true };
const HEADING: Style = Style { size: 11.0, bold: true, muted: false };
const TITLE: Style = Style { size: 13.0, bold: true, muted: false };
const LARGE: Style = Style { size: 16.0, bold: true, muted: false };

// Layout: what goes where, on which page.

/// Something drawn on a page, in points from the page's top left corner.
#[derive(Debug, Clone)]
enum Item {
    /// One line of text; `y` is its baseline.
    Text {
        x: f32,
        y: f32,
        style: Style,
        text: String,
    },
    /// A thin horizontal rule.
    Rule {
        x: f32,
        y: f32,
        width: f32,
    },
    /// The design's drawing, fitted into the box.
    Preview {
        x: f32,
        y: f32,
        width: f32,
        height: f32,
    },
    Logo {
        x: f32,
        y: f32,
        width: f32,
        height: f32,
    },
}

/// The pages being laid out, and how far down the current one is filled.
struct Pages<'a> {
    fonts: &'a Fonts,
    number: &'a str,
    done: Vec<Vec<Item>>,
    page: Vec<Item>,
    y: f32,
}

impl<'a> Pages<'a> {
    fn new(fonts: &'a Fonts, number: &'a str) -> Self {
        Self { fonts, number, done: Vec::new(), page: Vec::new(), y: TOP }
    }

    /// Starts a new page unless `height` more fits on this one (or this one has nothing yet but
    /// its head: what is taller than a page goes on regardless); answers whether it did.
    fn room(&mut self, height: f32) -> bool {
        if self.y + height <= BOTTOM || self.y <= TOP + 30.0 {
            return false;
        }
        self.done.push(std::mem::take(&mut self.page));
        self.y = TOP;
        let continued = format!("{}, continued", self.number);
        self.text(LEFT, self.y, SMALL, &continued);
        self.y += SMALL.line_height() + 2.0;
        self.rule(LEFT, WIDTH);
        self.y += 12.0;
        true
    }

    fn gap(&mut self, height: f32) {
        self.y += height;
    }

    /// A line of text whose top is at `top`.
    fn text(&mut self, x: f32, top: f32, style: Style, text: &str) {
        if !text.is_empty() {
            self.page.push(Item::Text { x, y: top + style.size, style, text: text.to_owned() });
        }
    }

    /// A line of text ending at `right`, made smaller if it is wider than `width`.
    fn text_right(&mut self, right: f32, top: f32, style: Style, text: &str, width: f32) {
        let style = self.fonts.fit(text, style, width);
        let x = right - self.fonts.width(text, style);
        self.text(x, top, style, text);
    }

    /// A rule at the current height.
    fn rule(&mut self, x: f32, width: f32) {
        self.page.push(Item::Rule { x, y: self.y, width });
    }

    /// `text` wrapped to `width`, flowing onto new pages as they fill.
    fn paragraph(&mut self, x: f32, width: f32, style: Style, text: &str) {
        for line in self.fonts.wrap(text, style, width) {
            self.room(style.line_height());
            self.text(x, self.y, style, &line);
            self.y += style.line_height();
        }
    }

    /// Lines placed from `top` down without flowing, for blocks kept together.
    fn block(&mut self, x: f32, top: f32, lines: &[(Style, String)]) {
        let mut y = top;
        for (style, line) in lines {
            self.text(x, y, *style, line);
            y += style.line_height();
        }
    }

    /// The pages, numbered when there are several.
    fn finish(mut self) -> Vec<Vec<Item>> {
        self.done.push(self.page);
        let count = self.done.len();
        if count > 1 {
            for (index, page) in self.done.iter_mut().enumerate() {
                let label = format!("Page {} of {count}", index + 1);
                let x = RIGHT - self.fonts.width(&label, SMALL);
                page.push(Item::Text { x, y: FOOT, style: SMALL, text: label });
            }
        }
        self.done
    }
}

/// The quote laid out on pages. `logo` is the logo's size in pixels, when there is one.
fn layout(
    quote: &CustomerQuote,
    fonts: &Fonts,
    preview: Option<&Preview>,
    logo: Option<(u32, u32)>,
) -> Vec<Vec<Item>> {
    let mut pages = Pages::new(fonts, &quote.number);
    head(&mut pages, quote, logo);
    recipient(&mut pages, quote);
    if let Some(design) = &quote.design {
        design_facts(&mut pages, design, preview.map(preview_box));
    }
    prices(&mut pages, quote);
    notes(&mut pages, &quote.notes);
    standing(&mut pages, quote);
    pages.finish()
}

/// The shop (logo, name, details) on the left; the quote's number and dates on the right.
fn head(pages: &mut Pages, quote: &CustomerQuote, logo: Option<(u32, u32)>) {
    let right = reference(pages, quote);
    if let Some((width, height)) = logo.filter(|&(width, height)| width > 0 && height > 0) {
        let (width, height) = (float(width), float(height));
        let scale = (LOGO_WIDTH / width).min(LOGO_HEIGHT / height);
        pages.page.push(Item::Logo { x: LEFT, y: pages.y, width: width * scale, height: height * scale });
        pages.gap(height * scale + 8.0);
    }
    let width = WIDTH - HEAD_RIGHT_WIDTH - GUTTER;
    pages.paragraph(LEFT, width, LARGE, quote.shop.name.trim());
    pages.paragraph(LEFT, width, DETAILS, quote.shop.details.trim());
    pages.y = pages.y.max(right) + 8.0;
    pages.rule(LEFT, WIDTH);
    pages.gap(14.0);
}

/// The quote's number, dates and version, right-aligned at the top; answers the height below.
fn reference(pages: &mut Pages, quote: &CustomerQuote) -> f32 {
    let mut y = pages.y;
    pages.text_right(RIGHT, y, LARGE, &format!("Quote {}", quote.number), HEAD_RIGHT_WIDTH);
    y += LARGE.line_height() + 2.0;
    let mut lines = vec![
        format!("Issued {}", long_date(quote.issued_on)),
        format!("Valid until {}", long_date(quote.valid_until)),
    ];
    if quote.revision > 1 {
        lines.push(format!("Version {}", quote.revision));
    }
    for line in lines {
        pages.text_right(RIGHT, y, DETAILS, &line, HEAD_RIGHT_WIDTH);
        y += DETAILS.line_height();
    }
    y
}

/// "For": the customer's name, company and e-mail (those given); then what the quote is for.
fn recipient(pages: &mut Pages, quote: &CustomerQuote) {
    let customer = &quote.customer;
    let people = [(STRONG, &customer.name), (BODY, &customer.company), (BODY, &customer.email)];
    if people.iter().any(|(_, text)| !text.trim().is_empty()) {
        pages.room(SMALL.line_height() + STRONG.line_height());
        pages.text(LEFT, pages.y, SMALL, "For");
        pages.gap(SMALL.line_height());
        for (style, text) in people {
            pages.paragraph(LEFT, WIDTH, style, text.trim());
        }
        pages.gap(10.0);
    }
    pages.paragraph(LEFT, WIDTH, TITLE, quote.title.trim());
    pages.gap(14.0);
}

/// The design's drawing beside its facts, kept together on one page.
fn design_facts(pages: &mut Pages, design: &QuoteDesign, preview: Option<(f32, f32)>) {
    let x = if preview.is_some() { LEFT + PREVIEW_SIZE + 16.0 } else { LEFT };
    let mut facts: Vec<(Style, String)> = pages
        .fonts
        .wrap(design.file_name.trim(), STRONG, RIGHT - x)
        .into_iter()
        .map(|line| (STRONG, line))
        .collect();
    facts.push((BODY, format!("{} x {} mm", millimetres(design.width_mm), millimetres(design.height_mm))));
    facts.push((BODY, counted(design.stitches, "stitch", "stitches")));
    facts.push((BODY, counted(design.colours, "colour", "colours")));
    if design.locations > 1 {
        facts.push((BODY, counted(design.locations, "placement", "placements")));
    }
    let facts_height: f32 = facts.iter().map(|(style, _)| style.line_height()).sum();
    let body_height = preview.map_or(facts_height, |(_, height)| facts_height.max(height));

    pages.room(HEADING.line_height() + 4.0 + body_height);
    pages.text(LEFT, pages.y, HEADING, "Design");
    pages.gap(HEADING.line_height() + 4.0);
    if let Some((width, height)) = preview {
        pages.page.push(Item::Preview { x: LEFT, y: pages.y, width, height });
    }
    pages.block(x, pages.y, &facts);
    pages.gap(body_height + 14.0);
}

/// A row of the price table: a label and an amount for each column.
struct Row {
    label: String,
    amounts: Vec<String>,
    total: bool,
    rule_above: bool,
}

impl Row {
    fn new(label: String, amounts: Vec<String>) -> Self {
        Self { label, amounts, total: false, rule_above: false }
    }

    fn style(&self) -> Style {
        if self.total { STRONG } else { BODY }
    }
}

/// The price table: with one option a list of amounts; with several, a column for each.
fn prices(pages: &mut Pages, quote: &CustomerQuote) {
    let Some(first) = quote.options.first() else { return };
    let several = quote.options.len() > 1;
    let rows = if several { option_rows(quote) } else { one_option_rows(quote, first) };
    let table = Table::new(pages.fonts, quote, &rows);

    pages.room(HEADING.line_height() + 4.0 + table.header_height() + 3.0 * BODY.line_height());
    pages.text(LEFT, pages.y, HEADING, "Prices");
    pages.gap(HEADING.line_height() + 4.0);
    table.header(pages);
    for row in &rows {
        table.row(pages, row);
    }
    pages.gap(14.0);
}

/// The price table's columns: the labels', then one per option, headed by its quantity when
/// there are several.
struct Table {
    label_width: f32,
    column_width: f32,
    headers: Vec<String>,
    /// The column of the quantity the customer approved.
    chosen: Option<usize>,
}

impl Table {
    /// Columns as wide as their widest amount, leaving the labels at least 110 pt.
    fn new(fonts: &Fonts, quote: &CustomerQuote, rows: &[Row]) -> Self {
        let headers: Vec<String> = if quote.options.len() > 1 {
            quote.options.iter().map(|option| counted(option.quantity, "piece", "pieces")).collect()
        } else {
            Vec::new()
        };
        let chosen = match &quote.answer {
            Some(Answer::Approved { quantity, .. }) if !headers.is_empty() => {
                quote.options.iter().position(|option| option.quantity == *quantity)
            }
            _ => None,
        };
        let widest = rows
            .iter()
            .flat_map(|row| row.amounts.iter().map(|amount| fonts.width(amount, row.style())))
            .chain(headers.iter().map(|header| fonts.width(header, SMALL)))
            .fold(60.0, f32::max);
        let columns = float(quote.options.len().max(1));
        // Past MAX_OPTIONS (6) columns, amounts would be shrunk to nothing.
        let column_width = widest.min((WIDTH - 110.0) / columns - GUTTER).max(30.0);
        let label_width = WIDTH - columns * (column_width + GUTTER);
        Self { label_width, column_width, headers, chosen }
    }

    /// The right edge of a column of amounts (each column has the gutter on its left).
    fn right_of(&self, column: usize) -> f32 {
        LEFT + self.label_width + float(column + 1) * (self.column_width + GUTTER)
    }

    fn header_height(&self) -> f32 {
        match (self.headers.is_empty(), self.chosen) {
            (true, _) => 0.0,
            (false, None) => SMALL.line_height() + 6.0,
            (false, Some(_)) => SMALL.line_height() + STRONG.line_height() + 6.0,
        }
    }

    /// Each option's quantity over its column, "Chosen" under the approved one.
    fn header(&self, pages: &mut Pages) {
        if self.headers.is_empty() {
            return;
        }
        for (column, header) in self.headers.iter().enumerate() {
            let chosen = self.chosen == Some(column);
            let style = if chosen { Style { muted: false, bold: true, ..SMALL } } else { SMALL };
            pages.text_right(self.right_of(column), pages.y, style, header, self.column_width);
            if chosen {
                let top = pages.y + SMALL.line_height();
                pages.text_right(self.right_of(column), top, STRONG, "Chosen", self.column_width);
            }
        }
        pages.gap(self.header_height() - 3.0);
        pages.rule(LEFT, WIDTH);
        pages.gap(3.0);
    }

    /// A row, its label wrapped, its amounts on its first line; on a new page under the header
    /// again when this one is full.
    fn row(&self, pages: &mut Pages, row: &Row) {
        let style = row.style();
        let label = pages.fonts.wrap(&row.label, style, self.label_width);
        let height = style.line_height() * float(label.len().max(1)) + 3.0;
        if row.rule_above {
            pages.gap(3.0);
        }
        if pages.room(height + 3.0) {
            self.header(pages);
        } else if row.rule_above {
            pages.rule(LEFT, WIDTH);
            pages.gap(3.0);
        }
        let top = pages.y + 1.5;
        let lines: Vec<(Style, String)> = label.into_iter().map(|line| (style, line)).collect();
        pages.block(LEFT, top, &lines);
        for (column, amount) in row.amounts.iter().enumerate() {
            pages.text_right(self.right_of(column), top, style, amount, self.column_width);
        }
        pages.gap(height);
    }
}

/// One option: the embroidery, the set-up, each line with its count, and the totals.
fn one_option_rows(quote: &CustomerQuote, option: &OptionPrice) -> Vec<Row> {
    let money = |amount: Decimal| money(amount, &quote.currency);
    let pieces = counted(option.quantity, "piece", "pieces");
    let mut rows = vec![Row::new(
        format!("Embroidery, {pieces} at {}", money(option.per_piece)),
        vec![money(option.design_total - option.one_off)],
    )];
    if option.one_off > Decimal::ZERO {
        rows.push(Row::new("Set-up and digitising".to_owned(), vec![money(option.one_off)]));
    }
    for (index, line) in quote.lines.iter().enumerate() {
        let count = line.quantity.unwrap_or(option.quantity);
        let label = format!("{}, {count} x {}", line.description.trim(), money(line.unit_price));
        rows.push(Row::new(
            label,
            vec![option.lines.get(index).map_or_else(String::new, |&total| money(total))],
        ));
    }
    rows.extend(total_rows(quote));
    rows
}

/// Several options: the price per piece, the embroidery, the set-up, each line, and the totals,
/// each with an amount per option.
fn option_rows(quote: &CustomerQuote) -> Vec<Row> {
    let mut rows = vec![
        Row::new("Price per piece".to_owned(), each(quote, |option| option.per_piece)),
        Row::new("Embroidery".to_owned(), each(quote, |option| option.design_total - option.one_off)),
    ];
    if quote.options.iter().any(|option| option.one_off > Decimal::ZERO) {
        rows.push(Row::new("Set-up and digitising".to_owned(), each(quote, |option| option.one_off)));
    }
    for (index, line) in quote.lines.iter().enumerate() {
        let amounts = quote
            .options
            .iter()
            .map(|option| {
                option.lines.get(index).map_or_else(String::new, |&total| money(total, &quote.currency))
            })
            .collect();
        rows.push(Row::new(line_label(line, &quote.currency), amounts));
    }
    rows.extend(total_rows(quote));
    rows
}

/// A line of the shop's own over options of different quantities: "Digitising, 1 x €60.00",
/// "Polo shirts, €8.50 each".
fn line_label(line: &ExtraLine, currency: &str) -> String {
    let price = money(line.unit_price, currency);
    match line.quantity {
        Some(count) => format!("{}, {count} x {price}", line.description.trim()),
        None => format!("{}, {price} each", line.description.trim()),
    }
}

/// Subtotal, tax and total.
fn total_rows(quote: &CustomerQuote) -> [Row; 3] {
    [
        Row { rule_above: true, ..Row::new("Subtotal".to_owned(), each(quote, |option| option.subtotal)) },
        Row::new(format!("Tax ({}%)", quote.tax_percent.normalize()), each(quote, |option| option.tax)),
        Row { total: true, ..Row::new("Total".to_owned(), each(quote, |option| option.total)) },
    ]
}

/// An amount of each option, as money.
fn each(quote: &CustomerQuote, amount: fn(&OptionPrice) -> Decimal) -> Vec<String> {
    quote.options.iter().map(|option| money(amount(option), &quote.currency)).collect()
}

/// The shop's notes, with the author's line breaks.
fn notes(pages: &mut Pages, notes: &str) {
    if notes.trim().is_empty() {
        return;
    }
    pages.room(HEADING.line_height() + 4.0 + 2.0 * BODY.line_height());
    pages.text(LEFT, pages.y, HEADING, "Notes");
    pages.gap(HEADING.line_height() + 4.0);
    pages.paragraph(LEFT, WIDTH, BODY, notes.trim_end());
    pages.gap(14.0);
}

/// Where the quote stands: the customer's answer, its expiry, or its currency and validity.
fn standing(pages: &mut Pages, quote: &CustomerQuote) {
    let (style, text) = match &quote.answer {
        Some(Answer::Approved { name, po_number, quantity, at }) => {
            let po = if po_number.trim().is_empty() {
                String::new()
            } else {
                format!(", PO {}", po_number.trim())
            };
            let pieces = counted(*quantity, "piece", "pieces");
            (STRONG, format!("Approved by {} on {}{po}, {pieces}", name.trim(), long_date(at.date())))
        }
        Some(Answer::Declined { reason, at }) if reason.trim().is_empty() => {
            (STRONG, format!("Declined on {}", long_date(at.date())))
        }
        Some(Answer::Declined { reason, at }) => {
            (STRONG, format!("Declined on {}: {}", long_date(at.date()), reason.trim()))
        }
        None if quote.status == QuoteStatus::Expired => {
            (STRONG, format!("This quote expired on {}", long_date(quote.valid_until)))
        }
        None => {
            (DETAILS, format!("Prices in {}. Valid until {}.", quote.currency, long_date(quote.valid_until)))
        }
    };
    pages.room(6.0 + style.line_height());
    pages.rule(LEFT, WIDTH);
    pages.gap(6.0);
    pages.paragraph(LEFT, WIDTH, style, &text);
}

// Formatting.

/// Digits with a comma every three: "7200" -> "7,200".
fn grouped(digits: &str) -> String {
    let mut text = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

/// "1 piece", "50 pieces", "8 colours", with thousands grouped.
fn counted(count: u32, one: &str, many: &str) -> String {
    format!("{} {}", grouped(&count.to_string()), if count == 1 { one } else { many })
}

/// "7 December 2026".
pub fn long_date(date: Date) -> String {
    format!("{} {} {}", date.day(), date.month(), date.year())
}

/// A length in millimetres to a tenth, without a trailing ".0": "90", "62.5".
fn millimetres(value: f64) -> String {
    let text = format!("{value:.1}");
    text.strip_suffix(".0").map_or(text.clone(), str::to_owned)
}

#[expect(clippy::cast_precision_loss, reason = "counts and font units on a page are far below 2^24")]
fn float(value: impl TryInto<i64>) -> f32 {
    value.try_into().unwrap_or(i64::MAX) as f32
}

// Painting: the laid-out pages drawn with krilla.

/// The PDF of `pages`, titled `title`.
fn paint(
    pages: &[Vec<Item>],
    fonts: &Fonts,
    preview: Option<&Preview>,
    logo: Option<&Image>,
    title: &str,
) -> anyhow::Result<Vec<u8>> {
    let settings = PageSettings::from_wh(PAGE_WIDTH, PAGE_HEIGHT).context("the A4 page size")?;
    let mut document = Document::new();
    document.set_metadata(Metadata::new().title(title.to_owned()).language("en".to_owned()));
    for items in pages {
        let mut page = document.start_page_with(settings.clone());
        let mut surface = page.surface();
        for item in items {
            draw(&mut surface, item, fonts, preview, logo);
        }
        surface.finish();
        page.finish();
    }
    Ok(document.finish()?)
}

fn draw(surface: &mut Surface, item: &Item, fonts: &Fonts, preview: Option<&Preview>, logo: Option<&Image>) {
    match item {
        Item::Text { x, y, style, text } => {
            let colour = if style.muted { MUTED } else { INK };
            surface.set_stroke(None);
            surface.set_fill(Some(Fill { paint: paint_colour(colour).into(), ..Fill::default() }));
            let font = fonts.face(*style).font.clone();
            // Left to right always: krilla's simple text shapes a line in one direction, and a
            // line that started in Arabic or Hebrew would turn its amounts round ("05.8 x").
            surface.draw_text(
                Point::from_xy(*x, *y),
                font,
                style.size,
                text,
                false,
                TextDirection::LeftToRight,
            );
        }
        Item::Rule { x, y, width } => {
            let mut path = PathBuilder::new();
            path.move_to(*x, *y);
            path.line_to(x + width, *y);
            stroke(surface, path.finish(), RULE, 0.5);
        }
        Item::Preview { x, y, width, height } => {
            if let Some(preview) = preview {
                draw_preview(surface, preview, Point::from_xy(*x, *y), (*width, *height));
            }
        }
        Item::Logo { x, y, width, height } => {
            if let (Some(logo), Some(size)) = (logo, Size::from_wh(*width, *height)) {
                surface.push_transform(&Transform::from_translate(*x, *y));
                surface.draw_image(logo.clone(), size);
                surface.pop();
            }
        }
    }
}

fn paint_colour(colour: Rgb8) -> rgb::Color {
    rgb::Color::new(colour.r, colour.g, colour.b)
}

fn stroke(surface: &mut Surface, path: Option<Path>, colour: Rgb8, width: f32) {
    let Some(path) = path else { return };
    surface.set_fill(None);
    surface.set_stroke(Some(Stroke {
        paint: paint_colour(colour).into(),
        width,
        line_cap: LineCap::Round,
        line_join: LineJoin::Round,
        ..Stroke::default()
    }));
    surface.draw_path(&path);
}

/// The box the design's drawing takes: [`PREVIEW_SIZE`] on its longer side, its aspect kept.
fn preview_box(preview: &Preview) -> (f32, f32) {
    let (width, height) = preview_extent(preview);
    let scale = PREVIEW_SIZE / width.max(height);
    (width * scale, height * scale)
}

/// The design's width and height in its units (0.1 mm), at least 1, with a 4% margin each side
/// of the longer one, as `Preview::to_svg` has.
fn preview_extent(preview: &Preview) -> (f32, f32) {
    let width = float((i64::from(preview.max_x) - i64::from(preview.min_x)).max(1));
    let height = float((i64::from(preview.max_y) - i64::from(preview.min_y)).max(1));
    let margin = width.max(height) * 0.08;
    (width + margin, height + margin)
}

/// The design's stitches as thin lines in each block's colour (the next of [`NEUTRALS`] for a
/// block without one, as `Preview::to_svg` draws it), fitted into the box at `corner`, centred.
fn draw_preview(surface: &mut Surface, preview: &Preview, corner: Point, (width, height): (f32, f32)) {
    let (extent_x, extent_y) = preview_extent(preview);
    let scale = (width / extent_x).min(height / extent_y);
    let drawn = |min: i32, max: i32| float(i64::from(max) - i64::from(min)) * scale;
    let left = corner.x + (width - drawn(preview.min_x, preview.max_x)) / 2.0;
    let top = corner.y + (height - drawn(preview.min_y, preview.max_y)) / 2.0;
    let place = |[x, y]: [i32; 2]| (left + drawn(preview.min_x, x), top + drawn(preview.min_y, y));
    let mut neutrals = NEUTRALS.iter().filter_map(|hex| Rgb8::parse_hex(hex).ok()).cycle();
    for block in &preview.blocks {
        let colour = block.colour.or_else(|| neutrals.next()).unwrap_or(Rgb8::new(0, 0, 0));
        stroke(surface, block_path(block, place), colour, 0.25);
    }
}

/// A block's polylines as one path; `None` when it has no line of two points or more.
fn block_path(block: &PreviewBlock, place: impl Fn([i32; 2]) -> (f32, f32)) -> Option<Path> {
    let mut path = PathBuilder::new();
    for line in block.lines.iter().filter(|line| line.len() > 1) {
        for (index, &point) in line.iter().enumerate() {
            let (x, y) = place(point);
            if index == 0 { path.move_to(x, y) } else { path.line_to(x, y) }
        }
    }
    path.finish()
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::process::Command;

    use bobbin_core::colour::Rgb8;
    use bobbin_core::design::{Preview, PreviewBlock};
    use bobbin_core::quote::{ExtraLine, OptionPrice, QuoteStatus};
    use rust_decimal::Decimal;
    use time::macros::{date, datetime};

    use super::{Fonts, Item, is_image_error, layout, paint, quote_pdf, read_logo};
    use crate::repo::quotes::{Answer, Customer, CustomerQuote, QuoteDesign, Shop};

    const RED: Rgb8 = Rgb8::new(0xd0, 0x10, 0x20);
    const BLUE: Rgb8 = Rgb8::new(0x10, 0x30, 0xc0);

    fn decimal(text: &str) -> Decimal {
        text.parse().expect("a decimal")
    }

    /// `quantity` pieces at `per_piece` plus `one_off`, with `lines`, taxed at 20%.
    fn priced(quantity: u32, per_piece: &str, one_off: &str, lines: &[ExtraLine]) -> OptionPrice {
        let (per_piece, one_off) = (decimal(per_piece), decimal(one_off));
        let design_total = per_piece * Decimal::from(quantity) + one_off;
        let lines: Vec<Decimal> = lines
            .iter()
            .map(|line| line.unit_price * Decimal::from(line.quantity.unwrap_or(quantity)))
            .collect();
        let subtotal = design_total + lines.iter().sum::<Decimal>();
        let tax = (subtotal * decimal("0.2")).round_dp(2);
        OptionPrice {
            quantity,
            per_piece,
            one_off,
            design_total,
            lines,
            subtotal,
            tax,
            total: subtotal + tax,
        }
    }

    fn line(description: &str, unit_price: &str, quantity: Option<u32>) -> ExtraLine {
        ExtraLine { description: description.to_owned(), unit_price: decimal(unit_price), quantity }
    }

    /// A sent quote for 50 polos with a digitising line, one option.
    fn sample() -> CustomerQuote {
        let lines = vec![line("Polo shirts", "8.50", None), line("Digitising", "60.00", Some(1))];
        CustomerQuote {
            number: "Q-0007".to_owned(),
            revision: 2,
            status: QuoteStatus::Sent,
            title: "Café Rosa: 50 polos".to_owned(),
            shop: Shop {
                name: "Stitch & Thread".to_owned(),
                details: "12 Mill Lane, Leeds LS1 4AB\n0113 496 0000\nhello@stitch.example".to_owned(),
                logo: true,
            },
            customer: Customer {
                name: "Rosa Álvarez".to_owned(),
                company: "Café Rosa".to_owned(),
                email: "rosa@caferosa.example".to_owned(),
            },
            issued_on: date!(2026 - 12 - 07),
            valid_until: date!(2027 - 01 - 06),
            currency: "EUR".to_owned(),
            design: Some(QuoteDesign {
                file_name: "cafe-rosa-logo.pes".to_owned(),
                stitches: 7_200,
                colours: 8,
                width_mm: 90.0,
                height_mm: 60.0,
                locations: 2,
                preview: true,
            }),
            options: vec![priced(50, "7.12", "45.00", &lines)],
            lines,
            tax_percent: decimal("20"),
            notes: "Delivery in 10 working days from approval.\nPayment: 50% deposit, balance on delivery."
                .to_owned(),
            answer: None,
        }
    }

    /// A red ring, a blue satin block and a block without a colour, 90 x 60 mm.
    #[expect(clippy::cast_possible_truncation, reason = "points within the design's 900 x 600")]
    fn sample_preview() -> Preview {
        let ring = (0..=72)
            .map(|step| {
                let angle = f64::from(step) * std::f64::consts::PI / 36.0;
                [(450.0 + 280.0 * angle.cos()) as i32, (300.0 + 280.0 * angle.sin()) as i32]
            })
            .collect();
        let satin = (0..60).flat_map(|row| [[300, 200 + row * 3], [600, 200 + row * 3 + 1]]).collect();
        let outline = vec![[0, 0], [900, 0], [900, 600], [0, 600], [0, 0]];
        Preview {
            min_x: 0,
            min_y: 0,
            max_x: 900,
            max_y: 600,
            blocks: vec![
                PreviewBlock { colour: Some(RED), lines: vec![ring] },
                PreviewBlock { colour: Some(BLUE), lines: vec![satin] },
                PreviewBlock { colour: None, lines: vec![outline] },
            ],
        }
    }

    /// A PDF written to a temporary folder, with what poppler reads from it.
    struct Rendered {
        folder: tempfile::TempDir,
        bytes: usize,
        text: String,
        info: String,
        pages: u32,
    }

    impl Rendered {
        fn new(quote: &CustomerQuote, preview: Option<&Preview>, logo: Option<&[u8]>) -> Self {
            let pdf = quote_pdf(quote, preview, logo).expect("the PDF");
            let folder = tempfile::tempdir().expect("a temporary folder");
            let path = folder.path().join("quote.pdf");
            let bytes = pdf.len();
            std::fs::write(&path, pdf).expect("the PDF written");
            let text = run("pdftotext", &["-layout", path_str(&path), "-"]);
            let info = run("pdfinfo", &[path_str(&path)]);
            let pages = info
                .lines()
                .find_map(|line| line.strip_prefix("Pages:"))
                .and_then(|count| count.trim().parse().ok())
                .expect("pdfinfo's page count");
            Self { folder, bytes, text, info, pages }
        }

        /// Page 1 at 50 dpi: its width and its pixels, row by row.
        fn first_page(&self) -> (usize, Vec<[u8; 3]>) {
            let (pdf, prefix) = (self.folder.path().join("quote.pdf"), self.folder.path().join("page"));
            let args =
                ["-r", "50", "-png", "-singlefile", "-f", "1", "-l", "1", path_str(&pdf), path_str(&prefix)];
            run("pdftoppm", &args);
            let file = std::fs::File::open(prefix.with_extension("png")).expect("the page image");
            let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().expect("a PNG");
            let mut bytes = vec![0; reader.output_buffer_size().expect("a PNG's size")];
            let frame = reader.next_frame(&mut bytes).expect("the PNG's pixels");
            assert_eq!(frame.color_type, png::ColorType::Rgb, "pdftoppm writes 8-bit RGB");
            let pixels = bytes.chunks_exact(3).map(|pixel| [pixel[0], pixel[1], pixel[2]]).collect();
            (frame.width as usize, pixels)
        }
    }

    fn path_str(path: &Path) -> &str {
        path.to_str().expect("a UTF-8 path")
    }

    fn run(program: &str, args: &[&str]) -> String {
        let output = Command::new(program).args(args).output().expect("poppler-utils installed");
        assert!(output.status.success(), "{program} failed: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).expect("UTF-8 output")
    }

    /// Text as pdftotext lays it out, with runs of spaces made one.
    fn squeezed(text: &str) -> String {
        text.split(' ').filter(|word| !word.is_empty()).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn one_option_shows_the_quote_on_one_page() {
        let quote = sample();
        let rendered = Rendered::new(&quote, Some(&sample_preview()), None);
        let text = squeezed(&rendered.text);
        for expected in [
            "Quote Q-0007",
            "Issued 7 December 2026",
            "Valid until 6 January 2027",
            "Version 2",
            "Stitch & Thread",
            "0113 496 0000",
            "Rosa Álvarez",
            "Café Rosa",
            "rosa@caferosa.example",
            "Café Rosa: 50 polos",
            "cafe-rosa-logo.pes",
            "90 x 60 mm",
            "7,200 stitches",
            "8 colours",
            "2 placements",
            "Embroidery, 50 pieces at €7.12 €356.00",
            "Set-up and digitising €45.00",
            "Polo shirts, 50 x €8.50 €425.00",
            "Digitising, 1 x €60.00 €60.00",
            "Subtotal €886.00",
            "Tax (20%) €177.20",
            "Total €1,063.20",
            "Delivery in 10 working days from approval.\nPayment: 50% deposit, balance on delivery.",
            "Prices in EUR. Valid until 6 January 2027.",
        ] {
            assert!(text.contains(expected), "{expected:?} missing from:\n{text}");
        }
        assert_eq!(rendered.pages, 1);
        assert!(!text.contains("continued"));
        assert!(squeezed(&rendered.info).contains("Title: Quote Q-0007"), "{}", rendered.info);
        assert!(rendered.bytes < 60_000, "{} bytes: the fonts are subset", rendered.bytes);
    }

    #[test]
    fn several_options_have_a_column_each_and_the_chosen_one_marked() {
        let mut quote = sample();
        quote.options = [24, 48, 96, 1_200]
            .into_iter()
            .map(|quantity| priced(quantity, "7.12", "45.00", &quote.lines))
            .collect();
        quote.status = QuoteStatus::Approved;
        quote.answer = Some(Answer::Approved {
            name: "Rosa Álvarez".to_owned(),
            po_number: "PO-4471".to_owned(),
            quantity: 48,
            at: datetime!(2026-12-09 10:30 UTC),
        });
        let rendered = Rendered::new(&quote, None, None);
        let text = squeezed(&rendered.text);
        for expected in [
            "24 pieces 48 pieces 96 pieces 1,200 pieces",
            "Chosen",
            "Price per piece €7.12 €7.12 €7.12 €7.12",
            "Embroidery €170.88 €341.76 €683.52 €8,544.00",
            "Polo shirts, €8.50 each €204.00 €408.00 €816.00 €10,200.00",
            "Digitising, 1 x €60.00 €60.00 €60.00 €60.00 €60.00",
            "Subtotal €479.88 €854.76 €1,604.52 €18,849.00",
            "Total €575.86 €1,025.71 €1,925.42 €22,618.80",
            "Approved by Rosa Álvarez on 9 December 2026, PO PO-4471, 48 pieces",
        ] {
            assert!(text.contains(expected), "{expected:?} missing from:\n{text}");
        }
        assert!(!text.contains("Prices in EUR"));
        assert_eq!(rendered.pages, 1);
    }

    /// An expired quote with 30 lines, two options and 4,000 characters of notes.
    fn long_quote() -> CustomerQuote {
        let mut quote = sample();
        quote.lines = (1..=30)
            .map(|index| {
                let description = format!(
                    "Line {index}: {}",
                    "embroidered patch with merrowed edge ".repeat(1 + index % 5)
                );
                line(&description, "1.25", (index % 3 == 0).then_some(10))
            })
            .collect();
        quote.options = vec![priced(50, "7.12", "0", &quote.lines), priced(100, "6.40", "0", &quote.lines)];
        let sentence = "Garments are ordered once the quote is approved; sizes may be changed until then. ";
        quote.notes = sentence.repeat(25) + "\n\n" + &sentence.repeat(22) + "\nThe last line of the notes.";
        quote.status = QuoteStatus::Expired;
        quote
    }

    #[test]
    fn a_long_quote_flows_onto_pages_headed_continued() {
        let quote = long_quote();
        let rendered = Rendered::new(&quote, Some(&sample_preview()), None);
        let text = squeezed(&rendered.text);
        assert!(rendered.pages >= 2, "{} pages", rendered.pages);
        assert!(text.contains("Q-0007, continued"));
        assert!(text.contains(&format!("Page {} of {}", rendered.pages, rendered.pages)));
        assert!(text.contains("Line 30: embroidered patch"));
        assert!(text.contains("The last line of the notes."));
        assert!(text.contains("This quote expired on 6 January 2027"));
        assert!(!text.contains("Set-up and digitising"), "no set-up row when there is none");
    }

    #[test]
    fn a_declined_quote_says_why() {
        let mut quote = sample();
        quote.status = QuoteStatus::Declined;
        quote.answer = Some(Answer::Declined {
            reason: "We went with a local shop.".to_owned(),
            at: datetime!(2026-12-10 09:00 UTC),
        });
        let text = squeezed(&Rendered::new(&quote, None, None).text);
        assert!(text.contains("Declined on 10 December 2026: We went with a local shop."), "{text}");
        assert!(!text.contains("Valid until 6 January 2027."));
    }

    #[test]
    #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "points on the page")]
    fn the_preview_is_drawn_in_the_designs_colours() {
        let quote = sample();
        let preview = sample_preview();
        let rendered = Rendered::new(&quote, Some(&preview), None);
        let fonts = Fonts::load().expect("the fonts");
        let pages = layout(&quote, &fonts, Some(&preview), None);
        let (x, y, box_width, box_height) = pages[0]
            .iter()
            .find_map(|item| match *item {
                Item::Preview { x, y, width, height } => Some((x, y, width, height)),
                _ => None,
            })
            .expect("a preview on page 1");
        let (width, pixels) = rendered.first_page();
        let to_pixels = |points: f32| (points * 50.0 / 72.0) as usize;
        let (rows, columns) =
            (to_pixels(y)..to_pixels(y + box_height), to_pixels(x)..to_pixels(x + box_width));
        // Thin lines are antialiased towards white: a pixel is red, say, when its red is well
        // above its green and blue.
        let in_box = |channel: usize| {
            rows.clone()
                .flat_map(|row| columns.clone().map(move |column| row * width + column))
                .filter(|&at| {
                    (0..3).all(|other| {
                        other == channel || pixels[at][channel] > pixels[at][other].saturating_add(40)
                    })
                })
                .count()
        };
        let (red, blue) = (in_box(0), in_box(2));
        assert!(red > 20 && blue > 20, "{red} red and {blue} blue pixels in the preview");
    }

    #[test]
    fn a_bad_logo_is_left_out_and_a_good_one_drawn() {
        let quote = sample();
        let logo = tiny_png();
        let mut truncated = logo.clone();
        truncated.truncate(logo.len() - 20);
        let fonts = Fonts::load().expect("the fonts");
        let unreadable = read_logo(&truncated).expect("its header reads");
        let pages = layout(&quote, &fonts, None, Some(unreadable.size()));
        let error =
            paint(&pages, &fonts, None, Some(&unreadable), "Quote").expect_err("krilla decodes it late");
        assert!(is_image_error(&error), "{error}");
        for bytes in [b"not an image".as_slice(), &truncated, &logo[..40], &logo] {
            let pdf = quote_pdf(&quote, None, Some(bytes)).expect("a PDF whatever the logo");
            assert!(pdf.starts_with(b"%PDF"));
        }
    }

    /// A 4 x 2 red PNG.
    fn tiny_png() -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, 4, 2);
        encoder.set_color(png::ColorType::Rgb);
        let mut writer = encoder.write_header().expect("a PNG header");
        writer.write_image_data(&[200, 0, 0].repeat(8)).expect("PNG pixels");
        writer.finish().expect("a PNG");
        bytes
    }

    /// Text the font lacks glyphs for, words longer than a line, and the longest fields.
    fn unusual_quote() -> CustomerQuote {
        let mut quote = sample();
        quote.title = format!("漢字 🧵 {}", "W".repeat(200));
        quote.shop.name = "Ünïcödé Ěmbroidery & Ωmega Вышивка".to_owned();
        quote.shop.details = "Straße 5, Αθήνα, Москва ".repeat(20) + "\n\n\n" + &"a\n".repeat(20);
        quote.customer.company = String::new();
        quote.notes = "x".repeat(4_000);
        quote.lines[0].description = "ث".repeat(200);
        quote.currency = "CHF".to_owned();
        quote
    }

    #[test]
    fn text_the_font_lacks_or_cannot_break_still_fits() {
        let quote = unusual_quote();
        let fonts = Fonts::load().expect("the fonts");
        for page in layout(&quote, &fonts, Some(&sample_preview()), Some((400, 100))) {
            for item in page {
                if let Item::Text { x, y, style, text } = item {
                    let right = x + fonts.width(&text, style);
                    assert!(
                        x >= super::LEFT - 0.01 && right <= super::RIGHT + 0.01,
                        "{text:?} from {x} to {right}"
                    );
                    assert!(y <= super::FOOT + 0.01, "{text:?} at {y}");
                }
            }
        }
        let rendered = Rendered::new(&quote, None, None);
        assert!(rendered.pages >= 2);
    }
}
