//! Money is integer minor units; formatting follows the locale and the room's currency.
//!
//! This module is also the one place that says **how large an amount may be** and
//! how amounts are **added up without wrapping**: every amount the API, the pages or the
//! tablet accept is checked against one of the [`AmountRange`]s below (422 naming the field
//! outside it), and every total over stored amounts (reports, a session's dues, a player's
//! day) goes through [`add`]/[`sum`] (checked: an overflow is an error, never a wrapped
//! figure) or [`sum_wide`] (i128, for figures shown on a page).
//!
//! Why these bounds are enough for the sums: the largest single amount accepted is a pot of
//! [`TABLE_SEATS_MAX`] × [`STACK_CEILING`] = 1.1 × 10^12 minor units, so i64 (9.2 × 10^18)
//! holds more than eight million of the largest possible pots. A month of a 50-table room is
//! ~650k hands: even with every hand raked at the most a pot allows (5 %, PT-2007 7a) a
//! month's total stays ~250 times under i64. No SQL `SUM` adds amounts (reports read rows and
//! add them here), so the database never has to hold a wider total.

use super::error::Problem;
use super::player::Language;

// ---- bounds ----------------------------------------------------------------------

/// The largest amount of a game's own settings (blinds, minimum and maximum buy-in, rake cap,
/// smallest chip): 10,000,000.00 in major units of any of the room's currencies. The texts set
/// no figure (PT-2007 75, 78 let the house fix the caves; BSOP 24 only asks that the buy-ins
/// be shown); this is far above any live game and keeps every product of amounts below
/// (× 100 stacks × 11 seats) well inside i64.
pub const GAME_AMOUNT_MAX: i64 = 1_000_000_000;

/// A stack may hold at most this many maximum buy-ins of its game. PT-2007 75, 79 and BSOP 27
/// bound what a player *puts* on the table by the game's maximum; a stack grows beyond it only
/// by winning other players' chips at the table (at most 10 others, PT-2007 6), so 100
/// maximum buy-ins is ten full tables' worth: unreachable in play, while a typo of two extra
/// zeros on a normal stack is still accepted and one of 2^63 − 1 is not.
pub const STACK_BUYINS_MAX: i64 = 100;

/// The largest stack of a game without a maximum buy-in (BSOP 27: "se um jogo tiver um buy-in
/// máximo"), or at a table with no game: [`STACK_BUYINS_MAX`] × [`GAME_AMOUNT_MAX`]
/// (1,000,000,000.00).
pub const STACK_CEILING: i64 = STACK_BUYINS_MAX * GAME_AMOUNT_MAX;

/// PT-2007 6: a table has at most 11 places; a pot (or a payout from one) is made of the
/// stacks at the table, so it is at most this many stacks.
pub const TABLE_SEATS_MAX: i64 = 11;

/// The largest tip recorded at once (PT-2007 5, 9d): 1,000,000.00. A documented constant
/// rather than a room setting: the room's settings are the rule profile's small integers, and
/// one tip entry is one count at one table. Far above any real tip, far below an overflow.
pub const TIP_MAX: i64 = 100_000_000;

/// The largest drop box total (the quick per-hand rake mode, PT-2007 7a, counted once per
/// dealer shift at one table): 1,000,000.00. At the 5 % most a hand may give (PT-2007 7a)
/// that is the rake of 20,000,000.00 bet in one shift at one table.
pub const DROP_BOX_MAX: i64 = 100_000_000;

/// An inclusive range of minor units a field accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AmountRange {
    pub min: i64,
    pub max: i64,
}

impl AmountRange {
    pub const fn new(min: i64, max: i64) -> Self {
        AmountRange { min, max }
    }

    pub fn contains(self, amount: i64) -> bool {
        (self.min..=self.max).contains(&amount)
    }

    /// `err-amount-range` {min, max} (raw minor units: the caller says them in the room's
    /// currency, see [`crate::i18n::money`]) when `amount` is outside.
    pub fn check(self, amount: i64) -> Result<(), Problem> {
        if self.contains(amount) {
            Ok(())
        } else {
            Err(Problem::new(AMOUNT_RANGE_KEY)
                .arg("min", self.min)
                .arg("max", self.max))
        }
    }
}

/// The message key of an amount outside its range; its `min` and `max` are money.
pub const AMOUNT_RANGE_KEY: &str = "err-amount-range";

/// A game's setting (blinds, buy-ins, rake cap, smallest chip): 0.01 to [`GAME_AMOUNT_MAX`].
pub const GAME_AMOUNT: AmountRange = AmountRange::new(1, GAME_AMOUNT_MAX);
/// A tip: 0.01 to [`TIP_MAX`] (a tip of nothing is not a tip).
pub const TIP: AmountRange = AmountRange::new(1, TIP_MAX);
/// A drop box count: 0 (an empty box is a count) to [`DROP_BOX_MAX`].
pub const DROP_BOX: AmountRange = AmountRange::new(0, DROP_BOX_MAX);

/// The largest stack in a game: [`STACK_BUYINS_MAX`] of its maximum buy-in, else
/// [`STACK_CEILING`] (no maximum, or no game).
pub fn stack_max(buy_in_max: Option<i64>) -> i64 {
    match buy_in_max {
        Some(m) => m.clamp(1, GAME_AMOUNT_MAX) * STACK_BUYINS_MAX,
        None => STACK_CEILING,
    }
}

/// A counted stack (a count, a cash-out, a move with the stack, chips taken off for absence):
/// 0 to [`stack_max`].
pub fn stack(buy_in_max: Option<i64>) -> AmountRange {
    AmountRange::new(0, stack_max(buy_in_max))
}

/// Chips bought (a buy-in, a rebuy): 0.01 to [`stack_max`]; the rules of the game
/// (PT-2007 75, 79; BSOP 26, 37) then narrow it.
pub fn chips(buy_in_max: Option<i64>) -> AmountRange {
    AmountRange::new(1, stack_max(buy_in_max))
}

/// A pot, or a winner's payout from one (MO-13 11): 0 to [`TABLE_SEATS_MAX`] stacks.
pub fn pot(buy_in_max: Option<i64>) -> AmountRange {
    AmountRange::new(0, stack_max(buy_in_max) * TABLE_SEATS_MAX)
}

// ---- sums that never wrap -----------------------------------------------------------------------

/// A total left i64's range: refused, never wrapped. Amounts accepted since the bounds above
/// cannot get there; rows written before them (or by hand in the database) can.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

/// `a + b`, or [`Overflow`].
pub fn add(a: i64, b: i64) -> Result<i64, Overflow> {
    a.checked_add(b).ok_or(Overflow)
}

/// `*acc += v`, or [`Overflow`] (and `acc` unchanged).
pub fn add_to(acc: &mut i64, v: i64) -> Result<(), Overflow> {
    *acc = add(*acc, v)?;
    Ok(())
}

/// `a - b`, or [`Overflow`].
pub fn sub(a: i64, b: i64) -> Result<i64, Overflow> {
    a.checked_sub(b).ok_or(Overflow)
}

/// The sum of `amounts`, or [`Overflow`]. Added in i128 (no intermediate can overflow: 2^64
/// values of i64 fit), so only a total outside i64 is refused, whatever the order.
pub fn sum(amounts: impl IntoIterator<Item = i64>) -> Result<i64, Overflow> {
    i64::try_from(sum_i128(amounts)).map_err(|_| Overflow)
}

/// The sum of `amounts` for a figure on a page, where an error has nowhere to go: added in
/// i128 and held at i64's bounds (a figure past them is shown as the bound, never as a
/// wrapped negative).
pub fn sum_wide(amounts: impl IntoIterator<Item = i64>) -> i64 {
    sum_i128(amounts).clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

fn sum_i128(amounts: impl IntoIterator<Item = i64>) -> i128 {
    amounts.into_iter().map(i128::from).sum()
}

/// Minor-unit digits of the currencies a room may use (ISO 4217).
pub fn minor_digits(currency: &str) -> Option<u32> {
    match currency {
        "EUR" | "BRL" | "MOP" | "HKD" | "USD" | "GBP" | "CNY" => Some(2),
        _ => None,
    }
}

pub const CURRENCIES: &[&str] = &["EUR", "BRL", "MOP", "HKD", "USD", "GBP", "CNY"];

fn symbol(currency: &str) -> &str {
    match currency {
        "EUR" => "€",
        "BRL" => "R$",
        "MOP" => "MOP$",
        "HKD" => "HK$",
        "USD" => "US$",
        "GBP" => "£",
        "CNY" => "¥",
        other => other,
    }
}

fn group(int: u64, sep: char) -> String {
    let s = int.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(c);
    }
    out
}

/// `1234567` EUR → "12.345,67 €" (pt), "€12,345.67" (en). R$ precedes in Portuguese too.
pub fn format_money(minor: i64, currency: &str, lang: Language) -> String {
    let digits = minor_digits(currency).unwrap_or(2);
    let scale = 10u64.pow(digits);
    let neg = minor < 0;
    let abs = minor.unsigned_abs();
    let (int, frac) = (abs / scale, abs % scale);
    let (gsep, dsep) = match lang {
        Language::Pt => ('.', ','),
        Language::En => (',', '.'),
    };
    let mut num = group(int, gsep);
    if digits > 0 {
        num.push(dsep);
        num.push_str(&format!("{:0width$}", frac, width = digits as usize));
    }
    let sign = if neg { "-" } else { "" };
    let sym = symbol(currency);
    match (lang, currency) {
        (Language::Pt, "EUR") => format!("{sign}{num} {sym}"),
        (Language::Pt, _) => format!("{sign}{sym} {num}"),
        (Language::En, _) => format!("{sign}{sym}{num}"),
    }
}

/// Parses what a person types ("12,50", "12.50", "1.234,50", "1,234.50", "20") into minor
/// units. The last `.` or `,` followed by up to the currency's decimals is the decimal mark;
/// followed by exactly three digits it groups thousands. Anything else — more decimals than
/// the currency has, irregular groups ("1.23.45"), negative amounts, letters — is refused.
pub fn parse_money(s: &str, currency: &str) -> Option<i64> {
    let digits = minor_digits(currency).unwrap_or(2) as usize;
    let t: String = s.trim().chars().filter(|c| !c.is_whitespace()).collect();
    if t.is_empty()
        || t.len() > 20
        || !t
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    {
        return None;
    }
    let (int_part, frac_part) = match t.rfind(['.', ',']) {
        Some(i) if (1..=digits).contains(&(t.len() - i - 1)) => (&t[..i], &t[i + 1..]),
        Some(i) if t.len() - i - 1 == 3 => (t.as_str(), ""),
        Some(_) => return None,
        None => (t.as_str(), ""),
    };
    // Thousands groups: one kind of separator, not the decimal mark, 1-3 digits then threes.
    let decimal_mark = t[int_part.len()..].chars().next();
    let seps: Vec<char> = int_part.chars().filter(|c| !c.is_ascii_digit()).collect();
    if let Some(&sep) = seps.first() {
        if seps.iter().any(|c| *c != sep) || Some(sep) == decimal_mark {
            return None;
        }
        let groups: Vec<&str> = int_part.split(sep).collect();
        let first = groups[0];
        if first.is_empty()
            || first.len() > 3
            || first.starts_with('0')
            || groups[1..].iter().any(|g| g.len() != 3)
        {
            return None;
        }
    }
    let int_clean: String = int_part.chars().filter(|c| c.is_ascii_digit()).collect();
    if int_clean.is_empty() {
        return None;
    }
    let int: i64 = int_clean.parse().ok()?;
    let mut frac: i64 = if frac_part.is_empty() {
        0
    } else {
        frac_part.parse().ok()?
    };
    for _ in frac_part.len()..digits {
        frac *= 10;
    }
    int.checked_mul(10i64.pow(digits as u32))?.checked_add(frac)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_locale() {
        assert_eq!(format_money(1_234_567, "EUR", Language::Pt), "12.345,67 €");
        assert_eq!(format_money(1_234_567, "EUR", Language::En), "€12,345.67");
        assert_eq!(format_money(50_000, "BRL", Language::Pt), "R$ 500,00");
        assert_eq!(format_money(5, "MOP", Language::En), "MOP$0.05");
        assert_eq!(format_money(-250, "EUR", Language::Pt), "-2,50 €");
    }

    #[test]
    fn parses_what_people_type() {
        assert_eq!(parse_money("20", "EUR"), Some(2000));
        assert_eq!(parse_money("12,5", "EUR"), Some(1250));
        assert_eq!(parse_money("12.50", "EUR"), Some(1250));
        assert_eq!(parse_money("1.234,56", "EUR"), Some(123_456));
        assert_eq!(parse_money("1,234.56", "EUR"), Some(123_456));
        assert_eq!(parse_money("1.000", "EUR"), Some(100_000));
        assert_eq!(parse_money("-5", "EUR"), None);
        assert_eq!(parse_money("1,234", "EUR"), Some(123_400));
        assert_eq!(parse_money("abc", "EUR"), None);
        assert_eq!(parse_money("", "EUR"), None);
        assert_eq!(parse_money("0,50", "EUR"), Some(50));
        assert_eq!(parse_money("1.234.567,89", "EUR"), Some(123_456_789));
        // More decimals than the euro has, irregular or mixed groups: refused, never guessed.
        assert_eq!(parse_money("5,0000", "EUR"), None);
        assert_eq!(parse_money("12.3456", "EUR"), None);
        assert_eq!(parse_money("0,125", "EUR"), None);
        assert_eq!(parse_money("1.23.45", "EUR"), None);
        assert_eq!(parse_money("1,234,56", "EUR"), None);
        assert_eq!(parse_money("1.234.56", "EUR"), None);
        assert_eq!(parse_money(",50", "EUR"), None);
    }

    #[test]
    fn every_amount_has_a_range_and_the_largest_products_fit() {
        assert_eq!(stack_max(Some(20_000)), 2_000_000, "100 × a €200 maximum");
        assert_eq!(stack_max(None), STACK_CEILING);
        assert_eq!(
            stack_max(Some(i64::MAX)),
            STACK_CEILING,
            "a stored maximum is held"
        );
        assert!(stack(Some(20_000)).contains(0) && !stack(Some(20_000)).contains(-1));
        assert!(!chips(None).contains(0) && chips(None).contains(STACK_CEILING));
        assert_eq!(pot(None).max, 1_100_000_000_000);
        assert!(!TIP.contains(0) && TIP.contains(TIP_MAX) && !TIP.contains(TIP_MAX + 1));
        assert!(DROP_BOX.contains(0) && !DROP_BOX.contains(DROP_BOX_MAX + 1));
        let e = TIP.check(i64::MAX).unwrap_err();
        assert_eq!(e.key, AMOUNT_RANGE_KEY);
        assert_eq!(
            e.args,
            vec![("min", "1".to_string()), ("max", "100000000".to_string())]
        );
        // Eight million of the largest pots still add up in i64.
        assert!(pot(None).max.checked_mul(8_000_000).is_some());
    }

    #[test]
    fn sums_refuse_to_wrap() {
        assert_eq!(add(i64::MAX, 1), Err(Overflow));
        assert_eq!(sub(i64::MIN, 1), Err(Overflow));
        let mut acc = i64::MAX - 1;
        assert_eq!(add_to(&mut acc, 2), Err(Overflow));
        assert_eq!(acc, i64::MAX - 1, "unchanged by a refused addition");
        // Two tips of 2^63 − 1 once showed as −2: sums saturate instead of wrapping.
        assert_eq!(sum([i64::MAX, i64::MAX]), Err(Overflow));
        assert_eq!(sum_wide([i64::MAX, i64::MAX]), i64::MAX);
        // Only the total matters, not the order: an intermediate past i64 is fine.
        assert_eq!(sum([i64::MAX, 1, -1]), Ok(i64::MAX));
    }

    proptest::proptest! {
        /// Any amounts in range add up to their exact (i128) sum, whatever their number.
        #[test]
        fn sums_of_amounts_in_range_are_exact(
            v in proptest::collection::vec(0i64..=1_100_000_000_000, 0..200),
        ) {
            let exact: i128 = v.iter().map(|x| i128::from(*x)).sum();
            proptest::prop_assert_eq!(sum(v.iter().copied()).map(i128::from), Ok(exact));
            let mut acc = 0i64;
            for x in &v {
                add_to(&mut acc, *x).unwrap();
            }
            proptest::prop_assert_eq!(i128::from(acc), exact);
        }

        /// Whatever the locale's way of writing it, an amount reads back as itself.
        #[test]
        fn formatted_amounts_parse_back(minor in 0i64..10_000_000_000, pt in proptest::bool::ANY) {
            let lang = if pt { Language::Pt } else { Language::En };
            let shown = format_money(minor, "EUR", lang);
            let number: String = shown.chars().filter(|c| c.is_ascii_digit() || *c == '.' || *c == ',').collect();
            proptest::prop_assert_eq!(parse_money(&number, "EUR"), Some(minor));
        }
    }
}
