//! The serialized form of [`State`]: the JSON the referee's view (`grognard view --referee
//! --json`, the server's referee seat) and `Game::state_bytes` carry. It predates
//! [`Stage`], so the stage is written as the three keys it replaced, each in its old place:
//! `over` (always), `result` (once there is one) and `setting_up` (only while true). Reading
//! takes that form, so anything written before `Stage` reads the same.

use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Stage, State};
use crate::dice::GameRng;
use crate::geometry::Cell;
use crate::ids::{FeatureId, PieceId, SideId};
use crate::knowledge::Knowledge;
use crate::piece::{Piece, Place};
use crate::rules::victory::GameResult;

impl Serialize for State {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let result = self.result();
        let setting_up = self.setting_up();
        // Fields in the order the derived form had; the two optional keys are skipped as
        // its `skip_serializing_if` skipped them.
        let len = 16 + usize::from(result.is_some()) + usize::from(setting_up);
        let mut s = serializer.serialize_struct("State", len)?;
        s.serialize_field("turn", &self.turn)?;
        s.serialize_field("step", &self.step)?;
        s.serialize_field("order", &self.order)?;
        s.serialize_field("done", &self.done)?;
        s.serialize_field("pieces", &self.pieces)?;
        s.serialize_field("rng", &self.rng)?;
        s.serialize_field("options", &self.options)?;
        s.serialize_field("settings", &self.settings)?;
        s.serialize_field("over", &self.over())?;
        s.serialize_field("side_rngs", &self.side_rngs)?;
        s.serialize_field("knowledge", &self.knowledge)?;
        s.serialize_field("face_up", &self.face_up)?;
        s.serialize_field("redeployed", &self.redeployed)?;
        s.serialize_field("crossed", &self.crossed)?;
        s.serialize_field("phase_start", &self.phase_start)?;
        s.serialize_field("built", &self.built)?;
        match result {
            Some(r) => s.serialize_field("result", r)?,
            None => s.skip_field("result")?,
        }
        if setting_up {
            s.serialize_field("setting_up", &true)?;
        } else {
            s.skip_field("setting_up")?;
        }
        s.end()
    }
}

/// The form as read: the old keys, each optional one defaulted as before.
#[derive(Deserialize)]
struct Form {
    turn: u32,
    step: u32,
    order: Vec<SideId>,
    done: Vec<bool>,
    pieces: Vec<Piece>,
    rng: GameRng,
    options: Vec<bool>,
    settings: Vec<i32>,
    over: bool,
    #[serde(default)]
    side_rngs: Vec<GameRng>,
    #[serde(default)]
    knowledge: Vec<Knowledge>,
    #[serde(default)]
    face_up: Vec<bool>,
    #[serde(default)]
    redeployed: Vec<PieceId>,
    #[serde(default)]
    crossed: Vec<((SideId, Cell, Cell), u32)>,
    #[serde(default)]
    phase_start: Vec<Place>,
    #[serde(default)]
    built: Vec<(Cell, Cell, FeatureId)>,
    #[serde(default)]
    result: Option<GameResult>,
    #[serde(default)]
    setting_up: bool,
}

impl<'de> Deserialize<'de> for State {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let f = Form::deserialize(deserializer)?;
        // A recorded result means the game is over, whatever `over` says.
        let stage = if f.over || f.result.is_some() {
            Stage::Over(f.result)
        } else if f.setting_up {
            Stage::SettingUp
        } else {
            Stage::Playing
        };
        Ok(State {
            turn: f.turn,
            step: f.step,
            order: f.order,
            done: f.done,
            pieces: f.pieces,
            rng: f.rng,
            options: f.options,
            settings: f.settings,
            stage,
            side_rngs: f.side_rngs,
            knowledge: f.knowledge,
            face_up: f.face_up,
            redeployed: f.redeployed,
            crossed: f.crossed,
            phase_start: f.phase_start,
            built: f.built,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(stage: Stage) -> State {
        State {
            turn: 2,
            step: 1,
            order: vec![SideId(0), SideId(1)],
            done: vec![false, true],
            pieces: Vec::new(),
            rng: GameRng::new(7),
            options: Vec::new(),
            settings: vec![3],
            stage,
            side_rngs: Vec::new(),
            knowledge: Vec::new(),
            face_up: Vec::new(),
            redeployed: Vec::new(),
            crossed: Vec::new(),
            phase_start: Vec::new(),
            built: Vec::new(),
        }
    }

    fn won() -> GameResult {
        GameResult {
            winner: Some(SideId(1)),
            points: vec![0, 4],
            why: "the town is held".into(),
        }
    }

    #[test]
    fn the_stage_is_written_as_the_three_keys_it_replaced_in_their_old_places() {
        let json = |stage| serde_json::to_string(&state(stage)).expect("serialize");
        let playing = json(Stage::Playing);
        assert!(
            playing.contains(r#""settings":[3],"over":false,"side_rngs":[]"#),
            "{playing}"
        );
        assert!(playing.ends_with(r#""built":[]}"#), "{playing}");
        let setting_up = json(Stage::SettingUp);
        assert!(setting_up.contains(r#""over":false,"#), "{setting_up}");
        assert!(
            setting_up.ends_with(r#""built":[],"setting_up":true}"#),
            "{setting_up}"
        );
        let over = json(Stage::Over(Some(won())));
        assert!(over.contains(r#""over":true,"#), "{over}");
        assert!(
            over.ends_with(
                r#""built":[],"result":{"winner":1,"points":[0,4],"why":"the town is held"}}"#
            ),
            "{over}"
        );
        let ending = json(Stage::Over(None));
        assert!(ending.contains(r#""over":true,"#) && ending.ends_with(r#""built":[]}"#));
    }

    #[test]
    fn every_stage_reads_back_as_written() {
        for stage in [
            Stage::SettingUp,
            Stage::Playing,
            Stage::Over(None),
            Stage::Over(Some(won())),
        ] {
            let s = state(stage);
            let text = serde_json::to_string(&s).expect("serialize");
            let back: State = serde_json::from_str(&text).expect("deserialize");
            assert_eq!(back, s, "{text}");
        }
    }

    #[test]
    fn a_state_written_before_the_stage_reads_with_its_stage() {
        // The derived form of old: the optional keys absent, or written out.
        let rng = serde_json::to_string(&GameRng::new(7)).expect("rng");
        let old = |tail: &str| {
            format!(
                r#"{{"turn":2,"step":1,"order":[0,1],"done":[false,true],"pieces":[],"rng":{rng},"options":[],"settings":[3],{tail}}}"#
            )
        };
        let read = |tail: &str| -> State { serde_json::from_str(&old(tail)).expect("old form") };
        assert_eq!(read(r#""over":false"#).stage, Stage::Playing);
        assert_eq!(
            read(r#""over":false,"setting_up":true"#).stage,
            Stage::SettingUp
        );
        assert_eq!(read(r#""over":true"#).stage, Stage::Over(None));
        let result = r#""over":true,"result":{"winner":1,"points":[0,4],"why":"the town is held"}"#;
        assert_eq!(read(result).stage, Stage::Over(Some(won())));
        // Written back, the old form comes out as it went in (the defaulted lists added).
        let again = serde_json::to_string(&read(result)).expect("serialize");
        assert!(again.ends_with(
            r#""built":[],"result":{"winner":1,"points":[0,4],"why":"the town is held"}}"#
        ));
    }
}
