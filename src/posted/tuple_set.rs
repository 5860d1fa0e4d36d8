//! Tuples that several table constraints share, compiled once.

use std::sync::{Arc, OnceLock};

use crate::error::ModelError;

/// A list of tuples of one length for [`Model::table_set`](crate::Model::table_set): the
/// table constraints posted with one `TupleSet` (in one model or many, from any thread)
/// share its tuples and their compiled supports, which are built the first time a solver
/// needs them. Models that post the same relation many times (the sums of a killer
/// Sudoku's cages, a MiniZinc model's repeated `table`) pay for it once.
///
/// Cloning a `TupleSet` is cheap: the clones share everything.
///
/// ```
/// use bitcsp::{Model, Solver, TupleSet};
/// // Ordered pairs of distinct digits 1..=3 that sum to 4.
/// let pairs = TupleSet::new(2, &[vec![1, 3], vec![3, 1]])?;
/// let mut model = Model::new();
/// let x = model.new_vars(4, 1..=3)?;
/// model.table_set(&x[..2], &pairs)?;
/// model.table_set(&x[2..], &pairs)?;
/// assert_eq!(Solver::new(&model).count(None).count, 4);
/// # Ok::<(), bitcsp::ModelError>(())
/// ```
#[derive(Clone, Debug)]
pub struct TupleSet {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    arity: usize,
    /// One tuple after the other.
    flat: Box<[i32]>,
    compiled: OnceLock<Arc<TableData>>,
}

impl TupleSet {
    /// The tuples `tuples`, each of `arity` values; repeated tuples are accepted, and an
    /// empty list is a relation nothing satisfies.
    ///
    /// # Errors
    /// [`ModelError::TupleArity`] for a tuple of another length.
    pub fn new(arity: usize, tuples: &[Vec<i32>]) -> Result<Self, ModelError> {
        let mut flat = Vec::with_capacity(tuples.len().saturating_mul(arity));
        for (i, t) in tuples.iter().enumerate() {
            if t.len() != arity {
                return Err(ModelError::TupleArity {
                    tuple: i,
                    expected: arity,
                    found: t.len(),
                });
            }
            flat.extend_from_slice(t);
        }
        Ok(TupleSet::from_flat(arity, flat))
    }

    /// Tuples already laid out one after the other (`flat.len()` a multiple of `arity`).
    pub(crate) fn from_flat(arity: usize, flat: Vec<i32>) -> Self {
        TupleSet {
            inner: Arc::new(Inner {
                arity,
                flat: flat.into_boxed_slice(),
                compiled: OnceLock::new(),
            }),
        }
    }

    /// The number of values in each tuple.
    pub fn arity(&self) -> usize {
        self.inner.arity
    }

    /// The number of tuples.
    pub fn len(&self) -> usize {
        self.inner
            .flat
            .len()
            .checked_div(self.inner.arity)
            .unwrap_or(0)
    }

    /// True when there is no tuple.
    pub fn is_empty(&self) -> bool {
        self.inner.flat.is_empty()
    }

    /// The compiled supports, built on first use and shared from then on.
    pub(crate) fn compiled(&self) -> Arc<TableData> {
        Arc::clone(
            self.inner
                .compiled
                .get_or_init(|| Arc::new(TableData::new(self.inner.arity, &self.inner.flat))),
        )
    }
}

/// A list of tuples compiled for propagation: the distinct values of each column and the
/// tuples that hold each of them, as bitsets. It depends on the tuples alone, not on the
/// variables' domains.
#[derive(Debug)]
pub(crate) struct TableData {
    /// The words of a tuple bitset.
    pub(crate) words: usize,
    /// Per variable, its column's distinct values, sorted.
    pub(crate) values: Vec<Vec<i32>>,
    /// Per variable and value (in `values` order), the supports: `words` words each,
    /// variable after variable.
    pub(crate) supports: Vec<u64>,
    /// Where each variable's supports start in `supports`, in words.
    pub(crate) support_starts: Vec<usize>,
    /// The bits of real tuples in the last word.
    pub(crate) last_mask: u64,
}

impl TableData {
    /// `tuples` holds one row of `arity` values after the other.
    pub(crate) fn new(arity: usize, tuples: &[i32]) -> Self {
        let count = tuples.len().checked_div(arity).unwrap_or(0);
        let words = count.div_ceil(64).max(1);
        let mut values = Vec::with_capacity(arity);
        let mut supports = Vec::new();
        let mut support_starts = Vec::with_capacity(arity);
        for p in 0..arity {
            // The distinct values, kept sorted as they come: a column holds few distinct
            // values and many tuples, so this beats sorting the whole column.
            let mut column: Vec<i32> = Vec::new();
            for t in 0..count {
                let v = tuples[t * arity + p];
                if let Err(at) = column.binary_search(&v) {
                    column.insert(at, v);
                }
            }
            support_starts.push(supports.len());
            let first = supports.len();
            supports.resize(first + column.len() * words, 0);
            for t in 0..count {
                let j = column.binary_search(&tuples[t * arity + p]).unwrap_or(0);
                supports[first + j * words + t / 64] |= 1 << (t % 64);
            }
            values.push(column);
        }
        let last_mask = match count % 64 {
            0 if count > 0 => u64::MAX,
            0 => 0,
            r => (1u64 << r) - 1,
        };
        TableData {
            words,
            values,
            supports,
            support_starts,
            last_mask,
        }
    }
}
