//! Arithmetic and lookup constraints, each a [`Propagator`](crate::Propagator) in a file of
//! its own, posted through the model's methods (`Model::times`, `Model::abs`, ...). They
//! run through the public contract, like a user's propagator: a dynamic call per run.
//! Element over variables whose domains are one word each, which quasigroup models post
//! by the hundred, also has an engine-native form on the store's words
//! ([`WordElement`]), and so does element over constants with a one-word index and
//! result ([`WordLookup`]).

mod element;
mod element_var;
mod equal_offset;
mod function;
mod linear_ne;
mod min_max;
mod word_element;
mod word_lookup;

pub(crate) use element::Element;
pub(crate) use element_var::ElementVar;
pub(crate) use equal_offset::{equate, shifted, EqualOffset};
pub(crate) use function::{Binary, Unary};
pub(crate) use linear_ne::LinearNotEqual;
pub(crate) use min_max::Extremum;
pub(crate) use word_element::WordElement;
pub(crate) use word_lookup::WordLookup;

use smallvec::SmallVec;

use crate::propagator::{Conflict, Domains};
use crate::var::VarId;

/// Values gathered during a run: on the stack while there are few.
type Values = SmallVec<[i32; 64]>;

/// Keeps the values `a` of `x` whose image `f(a)` is a value of `z`, then the values of
/// `z` that are such an image: `z = f(x)` made domain consistent.
fn filter_by_image(
    d: &mut Domains<'_>,
    x: VarId,
    z: VarId,
    f: impl Fn(i32) -> Option<i32>,
) -> Result<(), Conflict> {
    let mut images = Values::new();
    let mut unsupported = Values::new();
    for a in d.values(x) {
        match f(a).filter(|&v| d.contains(z, v)) {
            Some(v) => images.push(v),
            None => unsupported.push(a),
        }
    }
    d.remove_values(x, &unsupported)?;
    keep_only(d, z, images)
}

/// Removes from `z` every value that is not in `supported`; from a domain of more than
/// [`MAX_PAIRS`](function::MAX_PAIRS) values (a wide one) only those beyond the supported
/// bounds, rather than visiting every value.
fn keep_only(d: &mut Domains<'_>, z: VarId, mut supported: Values) -> Result<(), Conflict> {
    supported.sort_unstable();
    let (Some(&lo), Some(&hi)) = (supported.first(), supported.last()) else {
        return Err(Conflict);
    };
    d.set_min(z, lo)?;
    d.set_max(z, hi)?;
    if u64::from(d.size(z)) > function::MAX_PAIRS {
        return Ok(());
    }
    let unsupported: Values = d
        .values(z)
        .filter(|v| supported.binary_search(v).is_err())
        .collect();
    d.remove_values(z, &unsupported)
}
