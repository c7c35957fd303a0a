//! `web-client/src/types.js`, the browser client's JSDoc types of the protocol, is
//! written by hand; this test holds it to the committed schema
//! (`schema/protocol.schema.json`, itself checked against the Rust types by
//! `tests/schema.rs`), both ways:
//!
//! - every `$defs` entry of the schema has a `@typedef` of the same name, and types.js
//!   has no other typedef but `CardKey` (a card id: a string in the schema);
//! - a string enum (Purpose, Mode, ErrorCode…) lists exactly the schema's values;
//! - a tagged union (ClientMessage, ServerMessage, Reply, Prompt, GameEvent…) has
//!   exactly the schema's tags, and each variant exactly its fields;
//! - an object has exactly the schema's fields, optional (`[name]`, `name?:`) exactly
//!   where the schema does not require them — or, for a field always sent as `null`
//!   when empty (the schema's `"default": null`), required with `| null`;
//! - every field's type is the schema's: `number`, `string` (or `CardKey`),
//!   `boolean`, `T[]`, a string literal, or a typedef named as the schema's `$ref`.
//!
//! Fix types.js by hand when this fails (the typedefs' shapes and comments are the
//! client's own; `tsc --checkJs` in tests/e2e type-checks the client against them).

use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

const SCHEMA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/schema/protocol.schema.json");
const TYPES_JS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web-client/src/types.js");

/// Typedefs types.js may have that the schema does not define.
const CLIENT_ONLY: &[&str] = &["CardKey"];

// ----- types.js: JSDoc typedefs ---------------------------------------------------------

/// A JSDoc type expression, as types.js writes them.
#[derive(Clone, Debug, PartialEq)]
enum Ty {
    /// `number`, `string`, `null`, `object`, or a typedef's name.
    Name(String),
    /// `'text'`.
    Lit(String),
    Array(Box<Ty>),
    Union(Vec<Ty>),
    Inter(Vec<Ty>),
    Obj(Vec<Field>),
}

#[derive(Clone, Debug, PartialEq)]
struct Field {
    name: String,
    optional: bool,
    ty: Ty,
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        let hit = self.peek() == Some(c);
        self.i += usize::from(hit);
        hit
    }
    fn expect(&mut self, c: u8) {
        assert!(
            self.eat(c),
            "types.js: expected {:?} at {}",
            c as char,
            self.at()
        );
    }
    fn at(&self) -> String {
        let end = (self.i + 40).min(self.s.len());
        String::from_utf8_lossy(&self.s[self.i..end]).into_owned()
    }
    fn ident(&mut self) -> String {
        self.skip_ws();
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_')
        {
            self.i += 1;
        }
        assert!(self.i > start, "types.js: expected a name at {}", self.at());
        String::from_utf8_lossy(&self.s[start..self.i]).into_owned()
    }
    fn union(&mut self) -> Ty {
        let mut parts = vec![self.inter()];
        while self.eat(b'|') {
            parts.push(self.inter());
        }
        if parts.len() == 1 {
            parts.remove(0)
        } else {
            Ty::Union(parts)
        }
    }
    fn inter(&mut self) -> Ty {
        let mut parts = vec![self.postfix()];
        while self.eat(b'&') {
            parts.push(self.postfix());
        }
        if parts.len() == 1 {
            parts.remove(0)
        } else {
            Ty::Inter(parts)
        }
    }
    fn postfix(&mut self) -> Ty {
        let mut t = self.primary();
        while self.s[self.i..].starts_with(b"[]") {
            self.i += 2;
            t = Ty::Array(Box::new(t));
        }
        t
    }
    fn primary(&mut self) -> Ty {
        match self.peek() {
            Some(b'(') => {
                self.i += 1;
                let t = self.union();
                self.expect(b')');
                t
            }
            Some(b'{') => {
                self.i += 1;
                let mut fields = Vec::new();
                while !self.eat(b'}') {
                    let name = self.ident();
                    let optional = self.eat(b'?');
                    self.expect(b':');
                    let ty = self.union();
                    fields.push(Field { name, optional, ty });
                    if !self.eat(b',') {
                        self.expect(b'}');
                        break;
                    }
                }
                Ty::Obj(fields)
            }
            Some(b'\'') => {
                self.i += 1;
                let start = self.i;
                while self.s[self.i] != b'\'' {
                    self.i += 1;
                }
                self.i += 1;
                Ty::Lit(String::from_utf8_lossy(&self.s[start..self.i - 1]).into_owned())
            }
            _ => Ty::Name(self.ident()),
        }
    }
}

/// The text of every `/** … */` comment, without the lines' leading `*`.
fn jsdoc(js: &str) -> String {
    let mut out = String::new();
    let mut rest = js;
    while let Some(start) = rest.find("/**") {
        let end = rest[start..].find("*/").expect("a closed comment") + start;
        for line in rest[start + 3..end].lines() {
            out.push_str(line.trim_start().trim_start_matches('*'));
            out.push('\n');
        }
        rest = &rest[end + 2..];
    }
    out
}

/// Every `@typedef` of types.js by name: its type, or for `{object}` its `@property`s.
fn typedefs(js: &str) -> BTreeMap<String, Ty> {
    let doc = jsdoc(js);
    let mut defs: BTreeMap<String, Ty> = BTreeMap::new();
    let mut last: Option<String> = None;
    let mut p = Parser {
        s: doc.as_bytes(),
        i: 0,
    };
    while let Some(at) = doc[p.i..].find('@') {
        p.i += at + 1;
        let tag = if doc[p.i..].starts_with("typedef") {
            "typedef"
        } else if doc[p.i..].starts_with("property") {
            "property"
        } else {
            continue;
        };
        p.i += tag.len();
        p.expect(b'{');
        let ty = p.union();
        p.expect(b'}');
        if tag == "typedef" {
            let name = p.ident();
            let ty = if ty == Ty::Name("object".into()) {
                Ty::Obj(vec![])
            } else {
                ty
            };
            assert!(
                defs.insert(name.clone(), ty).is_none(),
                "types.js defines {name} twice"
            );
            last = Some(name);
        } else {
            let optional = p.eat(b'[');
            let name = p.ident();
            if optional {
                p.expect(b']');
            }
            let owner = last
                .as_ref()
                .expect("a @property after its @typedef {object}");
            match defs.get_mut(owner) {
                Some(Ty::Obj(fields)) => fields.push(Field { name, optional, ty }),
                _ => panic!("types.js: @property {name} under {owner}, not a {{object}}"),
            }
        }
    }
    defs
}

// ----- the comparison -------------------------------------------------------------------

struct Check<'a> {
    defs: &'a Map<String, Value>,
    js: &'a BTreeMap<String, Ty>,
    problems: Vec<String>,
}

fn ref_name(node: &Value) -> Option<&str> {
    node["$ref"].as_str()?.strip_prefix("#/$defs/")
}

/// A string enum's values (`enum`, or `oneOf` of `const`s and `enum`s), if it is one.
fn string_enum(node: &Value) -> Option<BTreeSet<String>> {
    let strings = |v: &Value| -> Option<Vec<String>> {
        v.as_array()?
            .iter()
            .map(|s| s.as_str().map(String::from))
            .collect()
    };
    if let Some(values) = strings(&node["enum"]) {
        return Some(values.into_iter().collect());
    }
    let mut out = BTreeSet::new();
    for v in node["oneOf"].as_array()? {
        if v.get("properties").is_some() || v.get("$ref").is_some() {
            return None;
        }
        match (&v["const"], strings(&v["enum"])) {
            (Value::String(s), _) => {
                out.insert(s.clone());
            }
            (_, Some(values)) => out.extend(values),
            _ => return None,
        }
    }
    Some(out)
}

/// The members of a union (a non-union is its own only member).
fn members(t: &Ty) -> Vec<&Ty> {
    match t {
        Ty::Union(m) => m.iter().collect(),
        t => vec![t],
    }
}

impl Check<'_> {
    fn fail(&mut self, at: &str, what: String) {
        self.problems.push(format!("{at}: {what}"));
    }

    /// The fields of an object type: a literal, a typedef's, or an intersection's.
    fn fields(&self, t: &Ty) -> Option<Vec<Field>> {
        match t {
            Ty::Obj(f) => Some(f.clone()),
            Ty::Name(n) => self.fields(self.js.get(n)?),
            Ty::Inter(parts) => {
                let mut all = Vec::new();
                for p in parts {
                    all.extend(self.fields(p)?);
                }
                Some(all)
            }
            _ => None,
        }
    }

    /// A schema object's properties and required names (a `$ref` beside `properties`
    /// adds the referenced object's: ServerMessage's `decision` and `game_over`).
    fn schema_fields(&self, node: &Value) -> (Map<String, Value>, BTreeSet<String>) {
        let (mut props, mut required) = match ref_name(node) {
            Some(r) => self.schema_fields(&self.defs[r]),
            None => Default::default(),
        };
        if let Some(p) = node["properties"].as_object() {
            props.extend(p.clone());
        }
        for r in node["required"].as_array().into_iter().flatten() {
            required.insert(r.as_str().expect("a field name").to_string());
        }
        (props, required)
    }

    fn object(&mut self, at: &str, node: &Value, t: &Ty) {
        let Some(fields) = self.fields(t) else {
            return self.fail(at, format!("an object in the schema, {t:?} in types.js"));
        };
        let (props, required) = self.schema_fields(node);
        let names: BTreeSet<&str> = fields.iter().map(|f| f.name.as_str()).collect();
        for name in props.keys().filter(|n| !names.contains(n.as_str())) {
            self.fail(at, format!("types.js lacks the field {name}"));
        }
        for f in &fields {
            let at = format!("{at}.{}", f.name);
            let Some(prop) = props.get(&f.name) else {
                self.fail(&at, "not in the schema".into());
                continue;
            };
            let nullable_default = prop.get("default") == Some(&Value::Null);
            match (required.contains(&f.name), f.optional) {
                (true, true) => self.fail(&at, "optional, but the schema requires it".into()),
                (false, false) if !nullable_default => self.fail(
                    &at,
                    "required, but the schema does not require it: write [name] or name?:".into(),
                ),
                _ => {}
            }
            self.value(&at, prop, &f.ty, !f.optional && nullable_default);
        }
    }

    /// Compares a field's or array item's type. `must_be_null`: the field is always
    /// sent, as `null` when empty, so types.js must say `| null`.
    fn value(&mut self, at: &str, node: &Value, t: &Ty, must_be_null: bool) {
        let types: Vec<&str> = match &node["type"] {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let any_of = node["anyOf"].as_array();
        let schema_null = types.contains(&"null")
            || any_of.is_some_and(|a| a.iter().any(|v| v["type"] == "null"));
        // types.js may leave `| null` off an optional field (the server omits it then).
        let (t, js_null) = match t {
            Ty::Union(m) if m.contains(&Ty::Name("null".into())) => {
                let rest: Vec<Ty> = m
                    .iter()
                    .filter(|x| **x != Ty::Name("null".into()))
                    .cloned()
                    .collect();
                let t = if rest.len() == 1 {
                    rest[0].clone()
                } else {
                    Ty::Union(rest)
                };
                (t, true)
            }
            t => (t.clone(), false),
        };
        if js_null && !schema_null {
            self.fail(at, "| null, but the schema never sends null".into());
        }
        if must_be_null && !js_null {
            self.fail(at, "sent as null when empty: write | null".into());
        }
        if let Some(inner) = any_of.and_then(|a| a.iter().find(|v| v["type"] != "null")) {
            return self.value(at, inner, &t, false);
        }
        if let Some(r) = ref_name(node) {
            if t != Ty::Name(r.into()) {
                self.fail(at, format!("{r} in the schema, {t:?} in types.js"));
            }
            return;
        }
        if let Value::String(c) = &node["const"] {
            if t != Ty::Lit(c.clone()) {
                self.fail(at, format!("'{c}' in the schema, {t:?} in types.js"));
            }
            return;
        }
        let kind = types.iter().find(|k| **k != "null").copied();
        match (kind, &t) {
            (Some("integer" | "number"), Ty::Name(n)) if n == "number" => {}
            (Some("string"), Ty::Name(n)) if n == "string" || n == "CardKey" => {}
            (Some("boolean"), Ty::Name(n)) if n == "boolean" => {}
            (Some("array"), Ty::Array(item)) => {
                self.value(&format!("{at}[]"), &node["items"], item, false)
            }
            (Some("object"), _) => self.object(at, node, &t),
            _ => self.fail(at, format!("{node} in the schema, {t:?} in types.js")),
        }
    }

    /// Compares a `$defs` entry with the typedef of its name.
    fn def(&mut self, name: &str, node: &Value, t: &Ty) {
        if let Some(values) = string_enum(node) {
            let lits: Option<Vec<String>> = members(t)
                .into_iter()
                .map(|m| match m {
                    Ty::Lit(s) => Some(s.clone()),
                    _ => None,
                })
                .collect();
            let set = lits
                .as_ref()
                .map(|l| l.iter().cloned().collect::<BTreeSet<_>>());
            if let (Some(l), Some(set)) = (&lits, &set)
                && l.len() != set.len()
            {
                self.fail(name, "a value listed twice".into());
            }
            match set {
                Some(lits) if lits == values => {}
                Some(lits) => {
                    for v in values.difference(&lits) {
                        self.fail(name, format!("types.js lacks '{v}'"));
                    }
                    for v in lits.difference(&values) {
                        self.fail(name, format!("'{v}' is not in the schema"));
                    }
                }
                None => self.fail(
                    name,
                    format!("a string enum in the schema, {t:?} in types.js"),
                ),
            }
        } else if let Some(variants) = node["oneOf"].as_array() {
            self.tagged(name, variants, t);
        } else {
            self.object(name, node, t);
        }
    }

    /// A tagged union: the same tags, each variant with the same fields.
    fn tagged(&mut self, name: &str, variants: &[Value], t: &Ty) {
        let mut by_tag: BTreeMap<String, &Value> = BTreeMap::new();
        let mut tag_field = None;
        for v in variants {
            let (props, _) = self.schema_fields(v);
            let tag = props
                .iter()
                .find_map(|(k, p)| Some((k.clone(), p["const"].as_str()?)));
            let Some((field, tag)) = tag else {
                return self.fail(name, format!("a variant without a tag: {v}"));
            };
            tag_field = Some(field);
            by_tag.insert(tag.to_string(), v);
        }
        let tag_field = tag_field.expect("variants");
        let mut seen = BTreeSet::new();
        for m in members(t) {
            let tag = self.fields(m).and_then(|f| {
                f.into_iter()
                    .find_map(|f| match (f.name == tag_field, f.ty) {
                        (true, Ty::Lit(tag)) => Some(tag),
                        _ => None,
                    })
            });
            let Some(tag) = tag else {
                self.fail(name, format!("a member without a {tag_field}: {m:?}"));
                continue;
            };
            let at = format!("{name} {tag_field}: '{tag}'");
            match by_tag.get(&tag) {
                Some(v) => self.object(&at, v, m),
                None => self.fail(&at, "not in the schema".into()),
            }
            seen.insert(tag);
        }
        for tag in by_tag.keys().filter(|t| !seen.contains(*t)) {
            self.fail(name, format!("types.js lacks {tag_field}: '{tag}'"));
        }
    }
}

#[test]
fn types_js_describes_exactly_the_schema() {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(SCHEMA).expect("the schema")).unwrap();
    let js = typedefs(&std::fs::read_to_string(TYPES_JS).expect("web-client/src/types.js"));
    let defs = schema["$defs"].as_object().expect("$defs");
    let mut check = Check {
        defs,
        js: &js,
        problems: Vec::new(),
    };
    for (name, node) in defs {
        match js.get(name) {
            Some(t) => check.def(name, node, t),
            None => check.fail(name, "no @typedef in types.js".into()),
        }
    }
    for name in js.keys() {
        if !defs.contains_key(name) && !CLIENT_ONLY.contains(&name.as_str()) {
            check.fail(name, "a typedef the schema does not define".into());
        }
    }
    assert!(
        check.problems.is_empty(),
        "web-client/src/types.js differs from {SCHEMA}:\n{}",
        check.problems.join("\n")
    );
    assert!(js.len() > 40, "{} typedefs read", js.len());
}

#[test]
fn the_types_js_reader_reads_what_types_js_writes() {
    let js = typedefs(
        "// not a typedef {x: number}\n\
         /**\n * @typedef {'a' | 'b'} AB\n * @typedef {{type: 'x', n?: number} | ({type: 'y'} & O)} U\n\
         * @typedef {object} O  some words (`GET /x/{id}`)\n * @property {string[]} s\n\
         * @property {AB | null} [ab]   a comment, with: colons\n */",
    );
    let name = |n: &str| Ty::Name(n.into());
    let lit = |s: &str| Ty::Lit(s.into());
    let field = |n: &str, optional, ty| Field {
        name: n.into(),
        optional,
        ty,
    };
    assert_eq!(js["AB"], Ty::Union(vec![lit("a"), lit("b")]));
    assert_eq!(
        js["U"],
        Ty::Union(vec![
            Ty::Obj(vec![
                field("type", false, lit("x")),
                field("n", true, name("number"))
            ]),
            Ty::Inter(vec![
                Ty::Obj(vec![field("type", false, lit("y"))]),
                name("O")
            ]),
        ])
    );
    assert_eq!(
        js["O"],
        Ty::Obj(vec![
            field("s", false, Ty::Array(Box::new(name("string")))),
            field("ab", true, Ty::Union(vec![name("AB"), name("null")])),
        ])
    );
    assert_eq!(js.len(), 3);
}
