//! The compact form of the catalogue that the build embeds in the server binary and the
//! WebAssembly module. `build.rs` reads the data files in `crates/core/data/threads/`, checks them
//! and calls [`encode`]; the core calls [`decode`] once, on first use.
//!
//! Layout (little-endian): the magic `BBNTHRD1`, then a u16 count of lines; per line its id,
//! brand, name, fibre (empty when unknown) and source as strings, the weight as a u16 (0 when
//! unknown), the kind as a string, and a u32 count of rows; per row the code and the name as
//! short strings and three colour bytes. Strings are a u16 length then UTF-8, short strings a u8
//! length then UTF-8. Rows keep the order of the data file, so row `i` is on line `i + 2` of it
//! (after the header), which is how duplicates are reported.
//!
//! A hand-rolled format rather than a serde binary codec: it is forty lines, needs no extra
//! dependency in the WebAssembly module, and is read without copying a string.

/// One brand line as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineRecord<S> {
    pub id: S,
    pub brand: S,
    pub name: S,
    pub fibre: S,
    pub weight: u16,
    pub kind: S,
    pub source: S,
    pub rows: Vec<RowRecord<S>>,
}

/// One row of a line's data file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowRecord<S> {
    pub code: S,
    pub name: S,
    pub rgb: [u8; 3],
}

const MAGIC: &[u8; 8] = b"BBNTHRD1";

/// Why the embedded catalogue could not be read. Only a build bug can cause it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError(pub &'static str);

/// Encodes the lines; panics on a string too long for its length prefix, which `build.rs` has
/// already rejected with the file and line.
pub fn encode<S: AsRef<str>>(lines: &[LineRecord<S>]) -> Vec<u8> {
    fn string(out: &mut Vec<u8>, s: &str) {
        out.extend_from_slice(&u16::try_from(s.len()).expect("string fits in u16").to_le_bytes());
        out.extend_from_slice(s.as_bytes());
    }
    fn short(out: &mut Vec<u8>, s: &str) {
        out.push(u8::try_from(s.len()).expect("short string fits in u8"));
        out.extend_from_slice(s.as_bytes());
    }
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&u16::try_from(lines.len()).expect("line count fits in u16").to_le_bytes());
    for line in lines {
        for field in [&line.id, &line.brand, &line.name, &line.fibre, &line.source] {
            string(&mut out, field.as_ref());
        }
        out.extend_from_slice(&line.weight.to_le_bytes());
        string(&mut out, line.kind.as_ref());
        out.extend_from_slice(&u32::try_from(line.rows.len()).expect("row count fits in u32").to_le_bytes());
        for row in &line.rows {
            short(&mut out, row.code.as_ref());
            short(&mut out, row.name.as_ref());
            out.extend_from_slice(&row.rgb);
        }
    }
    out
}

/// Decodes what [`encode`] wrote, borrowing every string from `bytes`.
pub fn decode(bytes: &[u8]) -> Result<Vec<LineRecord<&str>>, DecodeError> {
    let mut reader = Reader { bytes };
    if reader.take(MAGIC.len())? != MAGIC {
        return Err(DecodeError("not a Bobbin thread catalogue"));
    }
    let line_count = reader.u16()?;
    let mut lines = Vec::with_capacity(usize::from(line_count));
    for _ in 0..line_count {
        let (id, brand, name, fibre, source) =
            (reader.string()?, reader.string()?, reader.string()?, reader.string()?, reader.string()?);
        let weight = reader.u16()?;
        let kind = reader.string()?;
        let row_count = reader.u32()?;
        let mut rows = Vec::with_capacity(row_count.try_into().unwrap_or(0));
        for _ in 0..row_count {
            let (code, name) = (reader.short()?, reader.short()?);
            let rgb = reader.take(3)?;
            rows.push(RowRecord { code, name, rgb: [rgb[0], rgb[1], rgb[2]] });
        }
        lines.push(LineRecord { id, brand, name, fibre, weight, kind, source, rows });
    }
    if reader.bytes.is_empty() { Ok(lines) } else { Err(DecodeError("trailing bytes")) }
}

struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        if self.bytes.len() < n {
            return Err(DecodeError("truncated"));
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn u16(&mut self) -> Result<u16, DecodeError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self) -> Result<u32, DecodeError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn utf8(&mut self, len: usize) -> Result<&'a str, DecodeError> {
        std::str::from_utf8(self.take(len)?).map_err(|_| DecodeError("invalid UTF-8"))
    }

    fn string(&mut self) -> Result<&'a str, DecodeError> {
        let len = self.u16()?;
        self.utf8(usize::from(len))
    }

    fn short(&mut self) -> Result<&'a str, DecodeError> {
        let len = self.take(1)?[0];
        self.utf8(usize::from(len))
    }
}
