//! `yamlencode`: go-cty-yaml's `marshalEmit` events through a port of libyaml's emitter.

use super::decode::Style;
use super::*;
use crate::value::Value;

// -----------------------------------------------------------------------------------
// Encoding: the libyaml emitter.

#[derive(Clone, Debug)]
enum EEv {
    StreamStart,
    StreamEnd,
    DocStart,
    DocEnd,
    Scalar { value: String, style: Style },
    SeqStart,
    SeqEnd,
    MapStart,
    MapEnd,
}

fn string_event(s: &str) -> EEv {
    EEv::Scalar {
        value: s.to_string(),
        style: if s.contains('\n') {
            Style::Literal
        } else {
            Style::DoubleQuoted
        },
    }
}

/// go-cty-yaml's `marshalEmit`, iteratively.
fn value_events(v: &Value, out: &mut Vec<EEv>) -> Result<(), String> {
    enum Work<'a> {
        Node(&'a Value),
        Key(&'a str),
        Ev(EEv),
    }
    let mut work = vec![Work::Node(v)];
    while let Some(w) = work.pop() {
        let v = match w {
            Work::Ev(e) => {
                out.push(e);
                continue;
            }
            Work::Key(k) => {
                out.push(string_event(k));
                continue;
            }
            Work::Node(v) => v,
        };
        match v {
            Value::Null(_) => out.push(EEv::Scalar {
                value: "null".to_string(),
                style: Style::Plain,
            }),
            Value::Unknown(_) => return Err("cannot serialize unknown value as YAML".to_string()),
            Value::Bool(b) => out.push(EEv::Scalar {
                value: b.to_string(),
                style: Style::Plain,
            }),
            Value::Number(n) => out.push(EEv::Scalar {
                value: number_text(n),
                style: Style::Plain,
            }),
            Value::String(s) => out.push(string_event(s)),
            Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
                out.push(EEv::SeqStart);
                work.push(Work::Ev(EEv::SeqEnd));
                for item in items.iter().rev() {
                    work.push(Work::Node(item));
                }
            }
            Value::Map(_, m) | Value::Object(m) => {
                out.push(EEv::MapStart);
                work.push(Work::Ev(EEv::MapEnd));
                for (k, item) in m.iter().rev() {
                    work.push(Work::Node(item));
                    work.push(Work::Key(k));
                }
            }
        }
    }
    Ok(())
}

pub(crate) fn encode(v: &Value) -> Result<String, String> {
    let mut events = vec![EEv::StreamStart, EEv::DocStart];
    value_events(v, &mut events)?;
    events.push(EEv::DocEnd);
    events.push(EEv::StreamEnd);
    let mut e = Emitter::new(&events);
    e.run()?;
    String::from_utf8(e.out).map_err(|_| "failed to write YAML token".to_string())
}

const BEST_INDENT: i64 = 2;
const BEST_WIDTH: i64 = 80;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum St {
    StreamStart,
    FirstDocumentStart,
    DocumentStart,
    DocumentContent,
    DocumentEnd,
    FlowSequenceFirstItem,
    FlowSequenceItem,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingSimpleValue,
    FlowMappingValue,
    BlockSequenceFirstItem,
    BlockSequenceItem,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingSimpleValue,
    BlockMappingValue,
    End,
}

#[derive(Default)]
struct ScalarData {
    value: Vec<u8>,
    multiline: bool,
    flow_plain_allowed: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

struct Emitter<'a> {
    events: &'a [EEv],
    head: usize,
    out: Vec<u8>,
    state: St,
    states: Vec<St>,
    indent: i64,
    indents: Vec<i64>,
    flow_level: i64,
    root_context: bool,
    sequence_context: bool,
    mapping_context: bool,
    simple_key_context: bool,
    column: i64,
    whitespace: bool,
    indention: bool,
    open_ended: bool,
    scalar: ScalarData,
    style: Style,
}

fn width(b: u8) -> usize {
    if b & 0x80 == 0 {
        1
    } else if b & 0xe0 == 0xc0 {
        2
    } else if b & 0xf0 == 0xe0 {
        3
    } else if b & 0xf8 == 0xf0 {
        4
    } else {
        1
    }
}

fn at(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

fn is_space(b: &[u8], i: usize) -> bool {
    at(b, i) == b' '
}

fn is_blank(b: &[u8], i: usize) -> bool {
    matches!(at(b, i), b' ' | b'\t')
}

fn is_break(b: &[u8], i: usize) -> bool {
    let c = at(b, i);
    c == b'\r'
        || c == b'\n'
        || (c == 0xc2 && at(b, i + 1) == 0x85)
        || (c == 0xe2 && at(b, i + 1) == 0x80 && matches!(at(b, i + 2), 0xa8 | 0xa9))
}

fn is_blankz(b: &[u8], i: usize) -> bool {
    is_blank(b, i) || is_break(b, i) || i >= b.len() || at(b, i) == 0
}

fn is_bom(b: &[u8], i: usize) -> bool {
    at(b, i) == 0xef && at(b, i + 1) == 0xbb && at(b, i + 2) == 0xbf
}

fn is_printable(b: &[u8], i: usize) -> bool {
    let c = at(b, i);
    let c1 = at(b, i + 1);
    let c2 = at(b, i + 2);
    c == 0x0a
        || (0x20..=0x7e).contains(&c)
        || (c == 0xc2 && c1 >= 0xa0)
        || (c > 0xc2 && c < 0xed)
        || (c == 0xed && c1 < 0xa0)
        || c == 0xee
        || (c == 0xef && !(c1 == 0xbb && c2 == 0xbf) && !(c1 == 0xbf && (c2 == 0xbe || c2 == 0xbf)))
}

impl<'a> Emitter<'a> {
    fn new(events: &'a [EEv]) -> Self {
        Emitter {
            events,
            head: 0,
            out: Vec::new(),
            state: St::StreamStart,
            states: Vec::new(),
            indent: -1,
            indents: Vec::new(),
            flow_level: 0,
            root_context: false,
            sequence_context: false,
            mapping_context: false,
            simple_key_context: false,
            column: 0,
            whitespace: true,
            indention: true,
            open_ended: false,
            scalar: ScalarData::default(),
            style: Style::Plain,
        }
    }

    fn run(&mut self) -> Result<(), String> {
        while self.head < self.events.len() {
            self.analyze_event();
            self.state_machine()?;
            self.head += 1;
        }
        Ok(())
    }

    fn event(&self) -> Option<&'a EEv> {
        self.events.get(self.head)
    }

    // --- output primitives -------------------------------------------------------

    fn put(&mut self, b: u8) {
        self.out.push(b);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push(b'\n');
        self.column = 0;
    }

    fn write(&mut self, s: &[u8], i: &mut usize) {
        let w = width(at(s, *i));
        self.out
            .extend_from_slice(s.get(*i..(*i + w).min(s.len())).unwrap_or_default());
        self.column += 1;
        *i += w;
    }

    fn write_all(&mut self, s: &[u8]) {
        let mut i = 0;
        while i < s.len() {
            self.write(s, &mut i);
        }
    }

    fn write_break(&mut self, s: &[u8], i: &mut usize) {
        if at(s, *i) == b'\n' {
            self.put_break();
            *i += 1;
        } else {
            self.write(s, i);
            self.column = 0;
        }
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    fn pop_state(&mut self) {
        self.state = self.states.pop().unwrap_or(St::End);
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(b' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(
        &mut self,
        indicator: &[u8],
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(b' ');
        }
        self.write_all(indicator);
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
        self.open_ended = false;
    }

    // --- analysis ------------------------------------------------------------------

    fn analyze_event(&mut self) {
        self.scalar = ScalarData::default();
        if let Some(EEv::Scalar { value, .. }) = self.event() {
            self.analyze_scalar(value.as_bytes());
        }
    }

    fn analyze_scalar(&mut self, value: &[u8]) {
        let sd = &mut self.scalar;
        sd.value = value.to_vec();
        if value.is_empty() {
            sd.multiline = false;
            sd.flow_plain_allowed = false;
            sd.block_plain_allowed = true;
            sd.single_quoted_allowed = true;
            sd.block_allowed = false;
            return;
        }
        let mut block_indicators = false;
        let mut flow_indicators = false;
        let mut line_breaks = false;
        let mut special_characters = false;
        let mut leading_space = false;
        let mut leading_break = false;
        let mut trailing_space = false;
        let mut trailing_break = false;
        let mut break_space = false;
        let mut space_break = false;
        let mut previous_space = false;
        let mut previous_break = false;
        if value.starts_with(b"---") || value.starts_with(b"...") {
            block_indicators = true;
            flow_indicators = true;
        }
        let mut preceded_by_whitespace = true;
        let mut i = 0;
        while i < value.len() {
            let w = width(at(value, i));
            let followed_by_whitespace = i + w >= value.len() || is_blank(value, i + w);
            let c = at(value, i);
            if i == 0 {
                match c {
                    b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|' | b'>'
                    | b'\'' | b'"' | b'%' | b'@' | b'`' => {
                        flow_indicators = true;
                        block_indicators = true;
                    }
                    b'?' | b':' => {
                        flow_indicators = true;
                        if followed_by_whitespace {
                            block_indicators = true;
                        }
                    }
                    b'-' if followed_by_whitespace => {
                        flow_indicators = true;
                        block_indicators = true;
                    }
                    _ => {}
                }
            } else {
                match c {
                    b',' | b'?' | b'[' | b']' | b'{' | b'}' => flow_indicators = true,
                    b':' => {
                        flow_indicators = true;
                        if followed_by_whitespace {
                            block_indicators = true;
                        }
                    }
                    b'#' if preceded_by_whitespace => {
                        flow_indicators = true;
                        block_indicators = true;
                    }
                    _ => {}
                }
            }
            if !is_printable(value, i) {
                special_characters = true;
            }
            if is_space(value, i) {
                if i == 0 {
                    leading_space = true;
                }
                if i + w == value.len() {
                    trailing_space = true;
                }
                if previous_break {
                    break_space = true;
                }
                previous_space = true;
                previous_break = false;
            } else if is_break(value, i) {
                line_breaks = true;
                if i == 0 {
                    leading_break = true;
                }
                if i + w == value.len() {
                    trailing_break = true;
                }
                if previous_space {
                    space_break = true;
                }
                previous_space = false;
                previous_break = true;
            } else {
                previous_space = false;
                previous_break = false;
            }
            preceded_by_whitespace = is_blankz(value, i);
            i += w;
        }
        sd.multiline = line_breaks;
        sd.flow_plain_allowed = true;
        sd.block_plain_allowed = true;
        sd.single_quoted_allowed = true;
        sd.block_allowed = true;
        if leading_space || leading_break || trailing_space || trailing_break {
            sd.flow_plain_allowed = false;
            sd.block_plain_allowed = false;
        }
        if trailing_space {
            sd.block_allowed = false;
        }
        if break_space {
            sd.flow_plain_allowed = false;
            sd.block_plain_allowed = false;
            sd.single_quoted_allowed = false;
        }
        if space_break || special_characters {
            sd.flow_plain_allowed = false;
            sd.block_plain_allowed = false;
            sd.single_quoted_allowed = false;
            sd.block_allowed = false;
        }
        if line_breaks {
            sd.flow_plain_allowed = false;
            sd.block_plain_allowed = false;
        }
        if flow_indicators {
            sd.flow_plain_allowed = false;
        }
        if block_indicators {
            sd.block_plain_allowed = false;
        }
    }

    // --- state machine -------------------------------------------------------------

    fn state_machine(&mut self) -> Result<(), String> {
        match self.state {
            St::StreamStart => self.emit_stream_start(),
            St::FirstDocumentStart | St::DocumentStart => self.emit_document_start(),
            St::DocumentContent => {
                self.states.push(St::DocumentEnd);
                self.emit_node(true, false, false, false)
            }
            St::DocumentEnd => self.emit_document_end(),
            St::FlowSequenceFirstItem => self.emit_flow_sequence_item(true),
            St::FlowSequenceItem => self.emit_flow_sequence_item(false),
            St::FlowMappingFirstKey => self.emit_flow_mapping_key(true),
            St::FlowMappingKey => self.emit_flow_mapping_key(false),
            St::FlowMappingSimpleValue => self.emit_flow_mapping_value(true),
            St::FlowMappingValue => self.emit_flow_mapping_value(false),
            St::BlockSequenceFirstItem => self.emit_block_sequence_item(true),
            St::BlockSequenceItem => self.emit_block_sequence_item(false),
            St::BlockMappingFirstKey => self.emit_block_mapping_key(true),
            St::BlockMappingKey => self.emit_block_mapping_key(false),
            St::BlockMappingSimpleValue => self.emit_block_mapping_value(true),
            St::BlockMappingValue => self.emit_block_mapping_value(false),
            St::End => Err("expected nothing after STREAM-END".to_string()),
        }
    }

    fn emit_stream_start(&mut self) -> Result<(), String> {
        if !matches!(self.event(), Some(EEv::StreamStart)) {
            return Err("expected STREAM-START".to_string());
        }
        self.indent = -1;
        self.column = 0;
        self.whitespace = true;
        self.indention = true;
        self.state = St::FirstDocumentStart;
        Ok(())
    }

    fn emit_document_start(&mut self) -> Result<(), String> {
        match self.event() {
            Some(EEv::DocStart) => {
                // An implicit first document: nothing is written.
                if self.state != St::FirstDocumentStart {
                    self.write_indent();
                    self.write_indicator(b"---", true, false, false);
                }
                self.state = St::DocumentContent;
                Ok(())
            }
            Some(EEv::StreamEnd) => {
                if self.open_ended {
                    self.write_indicator(b"...", true, false, false);
                    self.write_indent();
                }
                self.state = St::End;
                Ok(())
            }
            _ => Err("expected DOCUMENT-START or STREAM-END".to_string()),
        }
    }

    fn emit_document_end(&mut self) -> Result<(), String> {
        if !matches!(self.event(), Some(EEv::DocEnd)) {
            return Err("expected DOCUMENT-END".to_string());
        }
        self.write_indent();
        self.state = St::DocumentStart;
        Ok(())
    }

    fn emit_flow_sequence_item(&mut self, first: bool) -> Result<(), String> {
        if first {
            self.write_indicator(b"[", true, true, false);
            self.increase_indent(true, false);
            self.flow_level += 1;
        }
        if matches!(self.event(), Some(EEv::SeqEnd)) {
            self.flow_level -= 1;
            self.pop_indent();
            self.write_indicator(b"]", false, false, false);
            self.pop_state();
            return Ok(());
        }
        if !first {
            self.write_indicator(b",", false, false, false);
        }
        if self.column > BEST_WIDTH {
            self.write_indent();
        }
        self.states.push(St::FlowSequenceItem);
        self.emit_node(false, true, false, false)
    }

    fn emit_flow_mapping_key(&mut self, first: bool) -> Result<(), String> {
        if first {
            self.write_indicator(b"{", true, true, false);
            self.increase_indent(true, false);
            self.flow_level += 1;
        }
        if matches!(self.event(), Some(EEv::MapEnd)) {
            self.flow_level -= 1;
            self.pop_indent();
            self.write_indicator(b"}", false, false, false);
            self.pop_state();
            return Ok(());
        }
        if !first {
            self.write_indicator(b",", false, false, false);
        }
        if self.column > BEST_WIDTH {
            self.write_indent();
        }
        if self.check_simple_key() {
            self.states.push(St::FlowMappingSimpleValue);
            return self.emit_node(false, false, true, true);
        }
        self.write_indicator(b"?", true, false, false);
        self.states.push(St::FlowMappingValue);
        self.emit_node(false, false, true, false)
    }

    fn emit_flow_mapping_value(&mut self, simple: bool) -> Result<(), String> {
        if simple {
            self.write_indicator(b":", false, false, false);
        } else {
            if self.column > BEST_WIDTH {
                self.write_indent();
            }
            self.write_indicator(b":", true, false, false);
        }
        self.states.push(St::FlowMappingKey);
        self.emit_node(false, false, true, false)
    }

    fn emit_block_sequence_item(&mut self, first: bool) -> Result<(), String> {
        if first {
            let indentless = self.mapping_context && !self.indention;
            self.increase_indent(false, indentless);
        }
        if matches!(self.event(), Some(EEv::SeqEnd)) {
            self.pop_indent();
            self.pop_state();
            return Ok(());
        }
        self.write_indent();
        self.write_indicator(b"-", true, false, true);
        self.states.push(St::BlockSequenceItem);
        self.emit_node(false, true, false, false)
    }

    fn emit_block_mapping_key(&mut self, first: bool) -> Result<(), String> {
        if first {
            self.increase_indent(false, false);
        }
        if matches!(self.event(), Some(EEv::MapEnd)) {
            self.pop_indent();
            self.pop_state();
            return Ok(());
        }
        self.write_indent();
        if self.check_simple_key() {
            self.states.push(St::BlockMappingSimpleValue);
            return self.emit_node(false, false, true, true);
        }
        self.write_indicator(b"?", true, false, true);
        self.states.push(St::BlockMappingValue);
        self.emit_node(false, false, true, false)
    }

    fn emit_block_mapping_value(&mut self, simple: bool) -> Result<(), String> {
        if simple {
            self.write_indicator(b":", false, false, false);
        } else {
            self.write_indent();
            self.write_indicator(b":", true, false, true);
        }
        self.states.push(St::BlockMappingKey);
        self.emit_node(false, false, true, false)
    }

    fn emit_node(
        &mut self,
        root: bool,
        sequence: bool,
        mapping: bool,
        simple_key: bool,
    ) -> Result<(), String> {
        self.root_context = root;
        self.sequence_context = sequence;
        self.mapping_context = mapping;
        self.simple_key_context = simple_key;
        match self.event() {
            Some(EEv::Scalar { style, .. }) => {
                let style = *style;
                self.emit_scalar(style);
                Ok(())
            }
            Some(EEv::SeqStart) => {
                self.state = if self.flow_level > 0 || self.check_empty_sequence() {
                    St::FlowSequenceFirstItem
                } else {
                    St::BlockSequenceFirstItem
                };
                Ok(())
            }
            Some(EEv::MapStart) => {
                self.state = if self.flow_level > 0 || self.check_empty_mapping() {
                    St::FlowMappingFirstKey
                } else {
                    St::BlockMappingFirstKey
                };
                Ok(())
            }
            _ => Err("expected SCALAR, SEQUENCE-START, MAPPING-START, or ALIAS".to_string()),
        }
    }

    fn emit_scalar(&mut self, requested: Style) {
        self.select_scalar_style(requested);
        self.increase_indent(true, false);
        self.process_scalar();
        self.pop_indent();
        self.pop_state();
    }

    fn check_empty_sequence(&self) -> bool {
        matches!(self.events.get(self.head), Some(EEv::SeqStart))
            && matches!(self.events.get(self.head + 1), Some(EEv::SeqEnd))
    }

    fn check_empty_mapping(&self) -> bool {
        matches!(self.events.get(self.head), Some(EEv::MapStart))
            && matches!(self.events.get(self.head + 1), Some(EEv::MapEnd))
    }

    fn check_simple_key(&self) -> bool {
        let length = match self.event() {
            Some(EEv::Scalar { .. }) => {
                if self.scalar.multiline {
                    return false;
                }
                self.scalar.value.len()
            }
            Some(EEv::SeqStart) => {
                if !self.check_empty_sequence() {
                    return false;
                }
                0
            }
            Some(EEv::MapStart) => {
                if !self.check_empty_mapping() {
                    return false;
                }
                0
            }
            _ => return false,
        };
        length <= 128
    }

    fn select_scalar_style(&mut self, requested: Style) {
        let mut style = requested;
        if self.simple_key_context && self.scalar.multiline {
            style = Style::DoubleQuoted;
        }
        if style == Style::Plain {
            if (self.flow_level > 0 && !self.scalar.flow_plain_allowed)
                || (self.flow_level == 0 && !self.scalar.block_plain_allowed)
            {
                style = Style::SingleQuoted;
            }
            if self.scalar.value.is_empty() && (self.flow_level > 0 || self.simple_key_context) {
                style = Style::SingleQuoted;
            }
        }
        if style == Style::SingleQuoted && !self.scalar.single_quoted_allowed {
            style = Style::DoubleQuoted;
        }
        if matches!(style, Style::Literal | Style::Folded)
            && (!self.scalar.block_allowed || self.flow_level > 0 || self.simple_key_context)
        {
            style = Style::DoubleQuoted;
        }
        self.style = style;
    }

    fn process_scalar(&mut self) {
        let value = std::mem::take(&mut self.scalar.value);
        let allow_breaks = !self.simple_key_context;
        match self.style {
            Style::Plain => self.write_plain_scalar(&value, allow_breaks),
            Style::SingleQuoted => self.write_single_quoted_scalar(&value, allow_breaks),
            Style::DoubleQuoted => self.write_double_quoted_scalar(&value, allow_breaks),
            Style::Literal | Style::Folded => self.write_literal_scalar(&value),
        }
        self.scalar.value = value;
    }

    fn write_plain_scalar(&mut self, value: &[u8], allow_breaks: bool) {
        if !self.whitespace {
            self.put(b' ');
        }
        let mut spaces = false;
        let mut breaks = false;
        let mut i = 0;
        while i < value.len() {
            if is_space(value, i) {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && !is_space(value, i + 1) {
                    self.write_indent();
                    i += width(at(value, i));
                } else {
                    self.write(value, &mut i);
                }
                spaces = true;
            } else if is_break(value, i) {
                if !breaks && at(value, i) == b'\n' {
                    self.put_break();
                }
                self.write_break(value, &mut i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write(value, &mut i);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.whitespace = false;
        self.indention = false;
        if self.root_context {
            self.open_ended = true;
        }
    }

    fn write_single_quoted_scalar(&mut self, value: &[u8], allow_breaks: bool) {
        self.write_indicator(b"'", true, false, false);
        let mut spaces = false;
        let mut breaks = false;
        let mut i = 0;
        while i < value.len() {
            if is_space(value, i) {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i < value.len() - 1
                    && !is_space(value, i + 1)
                {
                    self.write_indent();
                    i += width(at(value, i));
                } else {
                    self.write(value, &mut i);
                }
                spaces = true;
            } else if is_break(value, i) {
                if !breaks && at(value, i) == b'\n' {
                    self.put_break();
                }
                self.write_break(value, &mut i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if at(value, i) == b'\'' {
                    self.put(b'\'');
                }
                self.write(value, &mut i);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.write_indicator(b"'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_double_quoted_scalar(&mut self, value: &[u8], allow_breaks: bool) {
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        let mut spaces = false;
        self.write_indicator(b"\"", true, false, false);
        let mut i = 0;
        while i < value.len() {
            let c = at(value, i);
            if !is_printable(value, i)
                || is_bom(value, i)
                || is_break(value, i)
                || c == b'"'
                || c == b'\\'
            {
                let (w, mut v) = match c {
                    _ if c & 0x80 == 0 => (1, u32::from(c & 0x7f)),
                    _ if c & 0xe0 == 0xc0 => (2, u32::from(c & 0x1f)),
                    _ if c & 0xf0 == 0xe0 => (3, u32::from(c & 0x0f)),
                    _ => (4, u32::from(c & 0x07)),
                };
                for k in 1..w {
                    v = (v << 6) + u32::from(at(value, i + k) & 0x3f);
                }
                i += w;
                self.put(b'\\');
                match v {
                    0x00 => self.put(b'0'),
                    0x07 => self.put(b'a'),
                    0x08 => self.put(b'b'),
                    0x09 => self.put(b't'),
                    0x0a => self.put(b'n'),
                    0x0b => self.put(b'v'),
                    0x0c => self.put(b'f'),
                    0x0d => self.put(b'r'),
                    0x1b => self.put(b'e'),
                    0x22 => self.put(b'"'),
                    0x5c => self.put(b'\\'),
                    0x85 => self.put(b'N'),
                    0xa0 => self.put(b'_'),
                    0x2028 => self.put(b'L'),
                    0x2029 => self.put(b'P'),
                    _ => {
                        let digits = if v <= 0xff {
                            self.put(b'x');
                            2
                        } else if v <= 0xffff {
                            self.put(b'u');
                            4
                        } else {
                            self.put(b'U');
                            8
                        };
                        for k in (0..digits).rev() {
                            self.put(HEX[((v >> (k * 4)) & 0x0f) as usize]);
                        }
                    }
                }
                spaces = false;
            } else if is_space(value, i) {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i < value.len() - 1
                {
                    self.write_indent();
                    if is_space(value, i + 1) {
                        self.put(b'\\');
                    }
                    i += width(c);
                } else {
                    self.write(value, &mut i);
                }
                spaces = true;
            } else {
                self.write(value, &mut i);
                spaces = false;
            }
        }
        self.write_indicator(b"\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_block_scalar_hints(&mut self, value: &[u8]) {
        if is_space(value, 0) || is_break(value, 0) {
            let hint = [b'0' + BEST_INDENT as u8];
            self.write_indicator(&hint, false, false, false);
        }
        self.open_ended = false;
        let mut chomp: Option<u8> = None;
        if value.is_empty() {
            chomp = Some(b'-');
        } else {
            let mut i = value.len() - 1;
            while i > 0 && at(value, i) & 0xc0 == 0x80 {
                i -= 1;
            }
            if !is_break(value, i) {
                chomp = Some(b'-');
            } else if i == 0 {
                chomp = Some(b'+');
                self.open_ended = true;
            } else {
                i -= 1;
                while i > 0 && at(value, i) & 0xc0 == 0x80 {
                    i -= 1;
                }
                if is_break(value, i) {
                    chomp = Some(b'+');
                    self.open_ended = true;
                }
            }
        }
        if let Some(c) = chomp {
            // (go-cty-yaml's write_indicator clears open_ended again here.)
            self.write_indicator(&[c], false, false, false);
        }
    }

    fn write_literal_scalar(&mut self, value: &[u8]) {
        self.write_indicator(b"|", true, false, false);
        self.write_block_scalar_hints(value);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        let mut i = 0;
        while i < value.len() {
            if is_break(value, i) {
                self.write_break(value, &mut i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write(value, &mut i);
                self.indention = false;
                breaks = false;
            }
        }
    }
}
