//! Serde's access types over the tree: the items of a list, the entries of a map (unknown
//! and repeated keys reported at their lines) and an enum written as a string or a one-key
//! map.

use std::borrow::Cow;

use serde::de::value::StrDeserializer;
use serde::de::{
    DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};

use crate::diag::{Diagnostic, quote};
use crate::node::{Node, Value};

use super::{
    DecodeError, NodeDe, Path, Sink, deserialize_child, is_poisoned, one_of, suggestion, with_help,
};

/// The items of a list, skipping those set aside by earlier passes.
pub(super) struct SeqDe<'a, 'p> {
    pub(super) items: &'a [Node],
    pub(super) index: usize,
    pub(super) path: Path<'p>,
    pub(super) sink: &'a Sink,
    /// Set when an item failed and the list was cut short there.
    pub(super) truncated: bool,
}

impl<'a, 'p> SeqDe<'a, 'p> {
    pub(super) const fn new(items: &'a [Node], path: Path<'p>, sink: &'a Sink) -> Self {
        Self {
            items,
            index: 0,
            path,
            sink,
            truncated: false,
        }
    }
}

impl<'de> SeqAccess<'de> for SeqDe<'_, '_> {
    type Error = DecodeError;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, DecodeError> {
        while let Some(item) = self.items.get(self.index) {
            let index = self.index;
            self.index += 1;
            if is_poisoned(self.sink, item) {
                continue;
            }
            let path = Path::Index(&self.path, index);
            if let Ok(value) = deserialize_child(seed, item, path, self.sink, false, true) {
                return Ok(Some(value));
            }
            // The problem is reported and the item set aside for the next pass; end the
            // list here so the rest of the file is still checked in this pass.
            self.truncated = true;
            self.index = self.items.len();
            return Ok(None);
        }
        Ok(None)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len().saturating_sub(self.index))
    }
}

/// The entries of a mapping. With `fields` (a struct), other keys are reported and skipped.
pub(super) struct MapDe<'a, 'p> {
    pub(super) entries: &'a [(Node, Node)],
    pub(super) index: usize,
    pub(super) path: Path<'p>,
    pub(super) sink: &'a Sink,
    pub(super) fields: Option<&'static [&'static str]>,
    /// The entry whose key was handed out last.
    pub(super) pending: Option<&'a (Node, Node)>,
    /// Struct keys left out because their value failed in an earlier pass.
    pub(super) skipped: Vec<&'a str>,
}

impl<'de> MapAccess<'de> for MapDe<'_, '_> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DecodeError> {
        while let Some(entry) = self.entries.get(self.index) {
            self.index += 1;
            let (key, value) = entry;
            if is_poisoned(self.sink, value) || is_poisoned(self.sink, key) {
                if let Value::Str(name) = &key.value {
                    self.skipped.push(name);
                }
                continue;
            }
            if let Some(fields) = self.fields {
                let name = key.key_text();
                if !fields.contains(&name.as_str()) {
                    self.unknown_key(key, &name, fields);
                    continue;
                }
            }
            self.pending = Some(entry);
            return deserialize_child(seed, key, self.path, self.sink, false, true).map(Some);
        }
        Ok(None)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, DecodeError> {
        let Some((key, value)) = self.pending.take() else {
            return Err(DecodeError::fresh(
                "a value was asked for before its key".to_string(),
            ));
        };
        let key_text: Cow<'_, str> = match &key.value {
            Value::Str(s) => Cow::Borrowed(s),
            _ => Cow::Owned(key.key_text()),
        };
        let path = Path::Key(&self.path, &key_text);
        deserialize_child(seed, value, path, self.sink, false, true)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len().saturating_sub(self.index))
    }
}

impl MapDe<'_, '_> {
    pub(super) fn unknown_key(&self, key: &Node, name: &str, fields: &'static [&'static str]) {
        let message = format!(
            "unknown key {} {}; expected one of: {}",
            quote(name),
            self.path.place(),
            one_of(fields)
        );
        if let Ok(mut session) = self.sink.try_borrow_mut() {
            session.record(with_help(
                Diagnostic::new(key.location.clone(), message),
                suggestion(name, fields),
            ));
        }
    }
}

/// An enum value: its variant name and, if written as `{variant: content}`, the content.
pub(super) struct EnumDe<'d, 'a, 'p> {
    pub(super) de: &'d NodeDe<'a, 'p>,
    pub(super) variant: &'static str,
    pub(super) content: Option<&'a Node>,
}

impl<'a> EnumDe<'_, 'a, '_> {
    /// The deserializer of the content (or of "nothing" at the value, when there is none).
    pub(super) fn content_de<'b>(&'b self, path: Path<'b>) -> NodeDe<'a, 'b> {
        match self.content {
            Some(node) => NodeDe::new(node, path, self.de.sink),
            None => NodeDe {
                absent: true,
                ..NodeDe::new(self.de.node, path, self.de.sink)
            },
        }
    }
}

impl<'de> EnumAccess<'de> for EnumDe<'_, '_, '_> {
    type Error = DecodeError;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self), DecodeError> {
        let name: StrDeserializer<'_, DecodeError> = self.variant.into_deserializer();
        let value = seed.deserialize(name)?;
        Ok((value, self))
    }
}

impl<'de> VariantAccess<'de> for EnumDe<'_, '_, '_> {
    type Error = DecodeError;

    fn unit_variant(self) -> Result<(), DecodeError> {
        if let Some(content) = self.content
            && !content.is_null()
        {
            let path = Path::Key(&self.de.path, self.variant);
            let de = NodeDe::new(content, path, self.de.sink);
            de.report(
                &format!(
                    "`{}` takes no value, found {}",
                    self.variant,
                    content.describe()
                ),
                Some(format!("write just `{}`", self.variant)),
            );
        }
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<S::Value, DecodeError> {
        let path = Path::Key(&self.de.path, self.variant);
        match self.content {
            Some(node) => deserialize_child(seed, node, path, self.de.sink, false, false),
            None => deserialize_child(seed, self.de.node, path, self.de.sink, true, false),
        }
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        let path = Path::Key(&self.de.path, self.variant);
        self.content_de(path).deserialize_tuple(len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        let path = Path::Key(&self.de.path, self.variant);
        self.content_de(path)
            .deserialize_struct(self.variant, fields, visitor)
    }
}
