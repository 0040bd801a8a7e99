//! How the dealer's tablet announces a seat call. PT-2007 12 and BSOP 51: a freed seat goes to
//! the next on the list; BSOP 44: the player sits with the floor's permission, and the dealer
//! seats the player the call names (taking the buy-in, BSOP 24) while the call's clock runs —
//! so the dealer must not miss a call when it arrives.
//!
//! The room chooses: a chime and a vibration (the default), a vibration only (a quiet room),
//! or nothing. Each tablet may still mute itself for a while (kept on the device).

use super::enums::string_enum;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

string_enum! {
    /// The room's choice for a seat call arriving on a dealer's tablet.
    #[derive(Default)]
    CallAlert {
        /// A short chime and a vibration, where the device allows them.
        #[default]
        Sound = "sound",
        /// A vibration only, where the device allows it.
        Vibrate = "vibrate",
        /// Neither: the call is shown first on the table screen, silently.
        Off = "off",
    }
}

impl CallAlert {
    /// The tablet plays the chime.
    pub fn sounds(self) -> bool {
        self == CallAlert::Sound
    }

    /// The tablet vibrates.
    pub fn vibrates(self) -> bool {
        self != CallAlert::Off
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_round_trip_and_the_default_sounds() {
        for a in CallAlert::ALL {
            assert_eq!(a.as_str().parse::<CallAlert>(), Ok(*a));
        }
        assert_eq!("loud".parse::<CallAlert>(), Err(()));
        assert_eq!(CallAlert::default(), CallAlert::Sound);
        assert!(CallAlert::Sound.sounds() && CallAlert::Sound.vibrates());
        assert!(!CallAlert::Vibrate.sounds() && CallAlert::Vibrate.vibrates());
        assert!(!CallAlert::Off.sounds() && !CallAlert::Off.vibrates());
    }
}
