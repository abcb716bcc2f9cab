//! Piece types' footprints on the open table (`footprint:`): bases, their arrangement,
//! and a footprint per mode, compiled to the kernel's rectangle per mode.

use grognard_kernel::geometry::footprint::Footprint;
use grognard_kernel::geometry::open::{Len, Scale};

use crate::cx::Cx;
use crate::de::Located;
use crate::model::{Arrangement, FootprintSpec, LengthValue};
use crate::names::{NameTable, kind};

/// Millimetres to thou, exactly: 1 mm = 1000 / 25.4 thou.
fn mm_to_thou(mm: f64) -> f64 {
    mm * 1000.0 / 25.4
}

/// A length in table thou: `mm` and `cm` are the table's own; inches are rule inches,
/// scaled with the table.
fn length(cx: &mut Cx, v: &Located<LengthValue>, scale: Scale, what: &str) -> Option<Len> {
    let text = v.value.0.trim();
    let (number, table, factor) = if let Some(n) = text.strip_suffix("mm") {
        (n, true, 1.0)
    } else if let Some(n) = text.strip_suffix("cm") {
        (n, true, 10.0)
    } else if let Some(n) = text.strip_suffix("in").or_else(|| text.strip_suffix('"')) {
        (n, false, 1.0)
    } else {
        (text, false, 1.0)
    };
    let parsed = number.trim().parse::<f64>().ok().filter(|x| x.is_finite());
    let Some(x) = parsed else {
        cx.error(
            &v.location,
            format!(
                "footprint {what} `{text}`: expected a length such as 40mm, 4cm or 1.5 (inches)"
            ),
        );
        return None;
    };
    if x <= 0.0 {
        cx.error(
            &v.location,
            format!("footprint {what} `{text}`: a base's size must be more than 0"),
        );
        return None;
    }
    let thou = if table {
        mm_to_thou(x * factor)
    } else {
        x * 1000.0 * f64::from(scale.num) / f64::from(scale.den.max(1))
    };
    if thou > 1.0e7 {
        cx.error(
            &v.location,
            format!("footprint {what} `{text}`: larger than any table"),
        );
        return None;
    }
    #[allow(clippy::cast_possible_truncation)] // at most 1e7, checked above
    Some(Len(thou.round().max(1.0) as i64))
}

/// `over`'s fields, with `base`'s where `over` leaves them unset.
fn merged(base: &FootprintSpec, over: &FootprintSpec) -> FootprintSpec {
    FootprintSpec {
        width: over.width.clone().or_else(|| base.width.clone()),
        depth: over.depth.clone().or_else(|| base.depth.clone()),
        bases: over.bases.clone().or_else(|| base.bases.clone()),
        arrangement: over
            .arrangement
            .clone()
            .or_else(|| base.arrangement.clone()),
        files: over.files.clone().or_else(|| base.files.clone()),
        spacing: over.spacing.clone().or_else(|| base.spacing.clone()),
        modes: crate::named::NamedMap::default(),
        screen: over.screen.clone().or_else(|| base.screen.clone()),
        ahead: over.ahead.clone().or_else(|| base.ahead.clone()),
    }
}

/// The rectangle one footprint spec makes.
fn rectangle(
    cx: &mut Cx,
    spec: &Located<FootprintSpec>,
    f: &FootprintSpec,
    scale: Scale,
) -> Option<Footprint> {
    let need = |cx: &mut Cx, field: &Option<Located<LengthValue>>, what: &str| match field {
        Some(v) => length(cx, v, scale, what),
        None => {
            cx.error(
                &spec.location,
                format!("a footprint needs a base's `{what}`"),
            );
            None
        }
    };
    let w = need(cx, &f.width, "width")?.0;
    let d = need(cx, &f.depth, "depth")?.0;
    let gap = match &f.spacing {
        Some(v) => length(cx, v, scale, "spacing")?.0,
        None => 0,
    };
    let n = i64::from(f.bases.as_ref().map_or(1, |b| b.value));
    if n == 0 {
        let at = f.bases.as_ref().map_or(&spec.location, |b| &b.location);
        cx.error(at, "a footprint has at least one base");
        return None;
    }
    let row = |k: i64, size: i64| k * size + (k - 1) * gap;
    let arrangement = f
        .arrangement
        .as_ref()
        .map_or(Arrangement::Line, |a| a.value);
    let (width, depth) = match arrangement {
        Arrangement::Line | Arrangement::Loose => (row(n, w), d),
        Arrangement::Column => (w, row(n, d)),
        Arrangement::Block => {
            let Some(files) = f
                .files
                .as_ref()
                .map(|x| i64::from(x.value))
                .filter(|x| *x > 0)
            else {
                let at = f
                    .arrangement
                    .as_ref()
                    .map_or(&spec.location, |a| &a.location);
                cx.error(
                    at,
                    "a `block` footprint needs `files:` (bases across, at least 1)",
                );
                return None;
            };
            let across = files.min(n);
            let ranks = (n + files - 1) / files;
            (row(across, w), row(ranks, d))
        }
    };
    if let Some(v) = &f.ahead {
        cx.error(
            &v.location,
            "`ahead` belongs in a footprint's `screen:` (how far in front of the bases it stands)",
        );
        return None;
    }
    let Some(screen) = &f.screen else {
        return Some(Footprint {
            width: Len(width),
            depth: Len(depth),
        });
    };
    // The screen: its own bases in front, `ahead` of the main body's front edge; the unit
    // is the rectangle enclosing both.
    let s = &screen.value;
    if s.screen.is_some() || !s.modes.is_empty() {
        cx.error(
            &screen.location,
            "a footprint's `screen:` has bases and `ahead`, not a screen or modes of its own",
        );
        return None;
    }
    let Some(ahead) = &s.ahead else {
        cx.error(
            &screen.location,
            "a footprint's `screen:` needs `ahead:` (how far in front of the bases it stands)",
        );
        return None;
    };
    let out_front = length(cx, ahead, scale, "ahead")?.0;
    let bases = FootprintSpec {
        ahead: None,
        ..s.clone()
    };
    let front = rectangle(cx, screen, &bases, scale)?;
    Some(Footprint {
        width: Len(width.max(front.width.0)),
        depth: Len(depth + out_front + front.depth.0),
    })
}

/// A piece type's footprint in each mode (by mode index), or an empty list when it has
/// none.
pub(crate) fn footprints(
    cx: &mut Cx,
    spec: Option<&Located<FootprintSpec>>,
    owner: &str,
    names: &NameTable,
    open: bool,
    scale: Scale,
) -> Vec<Option<Footprint>> {
    let Some(spec) = spec else {
        return Vec::new();
    };
    if !open {
        cx.error(
            &spec.location,
            format!("{owner}: footprints are for the open table (`geometry: {{ kind: open }}`)"),
        );
        return Vec::new();
    }
    for m in spec.value.modes.iter() {
        names.index(cx, kind::Mode, &m.name);
    }
    // The type's own footprint once, then each mode that reshapes it (so a mistake is
    // reported once, at its line).
    let own = rectangle(cx, spec, &merged(&spec.value, &spec.value), scale);
    names
        .modes
        .iter()
        .map(|mode| match spec.value.modes.get(mode) {
            Some(m) => {
                // A mistake it inherits from the type's own footprint is reported once.
                let mut scratch = Cx::new();
                let r = rectangle(&mut scratch, spec, &merged(&spec.value, m), scale);
                for d in scratch.diags.into_vec() {
                    if !cx.diags.iter().any(|x| x.to_string() == d.to_string()) {
                        cx.diags.push(d);
                    }
                }
                r
            }
            None => own,
        })
        .collect()
}
