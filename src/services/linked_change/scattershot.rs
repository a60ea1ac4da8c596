//! Scattershot's Mechanix: the sheet changes through its own edits (`scattershot_sheet_edit`),
//! all of which a player makes on their sheet. During creation points are free and may be
//! taken back; once creation is finished points are only bought, never taken back. A change
//! is a sheet that keeps the sheet's rules and, after creation, takes nothing back.

use std::collections::BTreeMap;

use super::{first_problem, kept, refused};
use crate::error::Result;
use crate::model::Game;
use crate::rules::record::CharacterRecord;
use crate::rules::scattershot::sheet::{FreeSkill, QualityKind, Sheet, Skill, SpecialAbility, Stage, Statistic};
use crate::rules::scattershot::table::{creation_limit, ScattershotTable};

/// Why nothing is taken back once creation is over.
const NOTHING_BACK: &str = "after creation points are only bought, never taken back";

pub(super) fn check(
    table: impl FnOnce() -> Result<ScattershotTable>,
    game: &Game,
    before: Option<&CharacterRecord>,
    after: &CharacterRecord,
) -> Result<()> {
    // A character made on the device starts as `create_character` makes it.
    let fresh = || Sheet::new(creation_limit(&game.table_settings));
    let before = before.map_or_else(fresh, |r| r.scattershot.clone().unwrap_or_default());
    // A character without a sheet plays with a new one: dropping the sheet is a change to it.
    let after = after.scattershot.clone().unwrap_or_default();
    sheet(&before, &after)?;
    played_by(&table()?, &before, &after)
}

/// Who plays a character is set at the table (audit D-SC4). A character with a player there
/// spends the player's stock, which lives on the table: its sheet holds no dice to change,
/// and a point bought after creation is bought on the table's device, which pays it.
fn played_by(table: &ScattershotTable, before: &Sheet, after: &Sheet) -> Result<()> {
    kept("player", &before.player, &after.player, "who plays the character", "is set at the table")?;
    let Some(player) = before.player.and_then(|p| table.player(p)) else { return Ok(()) };
    kept(
        "experience_dice",
        &before.experience_dice,
        &after.experience_dice,
        "the experience dice",
        &format!("are {}'s stock, kept at the table", player.name),
    )?;
    if before.stage == Stage::Play && after.points_spent() > before.points_spent() {
        return Err(refused(
            "points",
            format!("a point bought after creation is paid from {}'s stock: buy it on the table's device", player.name),
        ));
    }
    Ok(())
}

/// `after` as the player may make it from `before` through the sheet's edits.
fn sheet(before: &Sheet, after: &Sheet) -> Result<()> {
    first_problem(after.problems("sheet"))?;
    named_once(
        ("free_skills", "free skill"),
        before.free_skills.iter().map(|f| &f.name),
        after.free_skills.iter().map(|f| &f.name),
    )?;
    named_once(("skills", "skill"), before.skills.iter().map(|s| &s.name), after.skills.iter().map(|s| &s.name))?;
    if before.stage == Stage::Play {
        played(before, after)?;
    }
    Ok(())
}

/// After creation: purchases only, and disadvantages and everything else the sheet edits at
/// any time.
fn played(before: &Sheet, after: &Sheet) -> Result<()> {
    kept("stage", &before.stage, &after.stage, "creation", "is finished and does not start again")?;
    kept(
        "creation_limit",
        &before.creation_limit,
        &after.creation_limit,
        "the creation limit",
        "is set only during creation",
    )?;
    for statistic in Statistic::ALL {
        let (was, now) = (before.statistics.get(statistic), after.statistics.get(statistic));
        if now < was {
            return Err(lowered(&format!("statistics.{}", statistic.field()), statistic.word(), was, now));
        }
    }
    let free = |f: &FreeSkill| (f.name.clone(), f.starting_level);
    raised(("free_skills", "free skill"), &before.free_skills, &after.free_skills, free, |f| &f.name, |f| f.raised)?;
    let skill = |s: &Skill| (s.name.clone(), s.difficulty);
    raised(("skills", "skill"), &before.skills, &after.skills, skill, |s| &s.name, |s| s.points)?;
    let ability = |a: &SpecialAbility| (a.name.clone(), a.kind, a.difficulty, a.notes.clone());
    let abilities = (&before.special_abilities, &after.special_abilities);
    raised(("special_abilities", "special ability"), abilities.0, abilities.1, ability, |a| &a.name, |a| a.points)?;
    // Disadvantages come and go at any time; an advantage stays as it was bought. New ones
    // (either) join the end of the list.
    let mut next = after.qualities.iter().peekable();
    for quality in &before.qualities {
        if next.peek() == Some(&quality) {
            next.next();
        } else if quality.kind == QualityKind::Advantage {
            return Err(refused(
                "qualities",
                format!("the advantage “{}” was removed or changed: {NOTHING_BACK}", quality.name),
            ));
        }
    }
    Ok(())
}

/// The entries of one list of ratings (its field, and what one is in words) after creation:
/// each one `before` held is still there, in its place, the same (`same`), with at least its
/// points; new ones follow.
fn raised<T, K: PartialEq>(
    (field, what): (&str, &str),
    before: &[T],
    after: &[T],
    same: impl Fn(&T) -> K,
    name: impl Fn(&T) -> &String,
    points: impl Fn(&T) -> u32,
) -> Result<()> {
    for (i, was) in before.iter().enumerate() {
        match after.get(i) {
            Some(now) if same(now) == same(was) => {
                if points(now) < points(was) {
                    return Err(lowered(
                        &format!("{field}[{i}]"),
                        &format!("the {what} “{}”", name(was)),
                        points(was),
                        points(now),
                    ));
                }
            }
            _ => {
                return Err(refused(
                    &format!("{field}[{i}]"),
                    format!("the {what} “{}” was removed or rewritten: {NOTHING_BACK}", name(was)),
                ))
            }
        }
    }
    Ok(())
}

fn lowered(field: &str, what: &str, was: u32, now: u32) -> crate::error::Error {
    refused(field, format!("{what} went from {was} to {now} points: {NOTHING_BACK}"))
}

/// Refuses a name the change lists twice (in any case) in a list the rules keep unique.
fn named_once<'a>(
    (field, what): (&str, &str),
    before: impl Iterator<Item = &'a String>,
    after: impl Iterator<Item = &'a String>,
) -> Result<()> {
    let key = |name: &String| name.trim().to_ascii_lowercase();
    let mut was = BTreeMap::<String, usize>::new();
    for name in before {
        *was.entry(key(name)).or_default() += 1;
    }
    let mut now = BTreeMap::<String, usize>::new();
    for name in after {
        let n = now.entry(key(name)).or_default();
        *n += 1;
        if *n > 1 && *n > was.get(&key(name)).copied().unwrap_or(0) {
            return Err(refused(field, format!("the sheet already has the {what} “{name}”")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::scattershot::sheet::{Difficulty, Purchase, Resource};
    use crate::rules::scattershot::Settings;

    fn buy(sheet: &Sheet, purchase: Purchase) -> Sheet {
        sheet.buy(&Settings::default(), &purchase).unwrap().0
    }

    /// A sheet out of creation with a skill, an advantage, a disadvantage and dice to spend.
    fn out_of_creation() -> Sheet {
        let s =
            buy(&Sheet::new(None), Purchase::NewSkill { name: "Stealth".into(), difficulty: Difficulty::Difficult });
        let advantage =
            Purchase::NewAdvantage { name: "Keen eyes".into(), situation: String::new(), modifier: 1, points: 2 };
        let s = buy(&s, advantage);
        let s = s.add_disadvantage("Limp", "", -1).unwrap().0;
        s.finish_creation().unwrap().0.set_experience_dice(5).0
    }

    fn refusal(before: &Sheet, after: &Sheet) -> String {
        sheet(before, after).unwrap_err().to_string()
    }

    #[test]
    fn a_played_character_s_player_and_stock_are_the_table_s() {
        use crate::rules::scattershot::table::Player;
        let dana = uuid::Uuid::from_u128(77);
        let table =
            ScattershotTable { players: vec![Player { id: dana, name: "Dana".into(), dice: 4 }], ..Default::default() };
        let own = out_of_creation();
        let played = Sheet { player: Some(dana), experience_dice: 0, ..own.clone() };
        let err = |b: &Sheet, a: &Sheet| played_by(&table, b, a).unwrap_err().to_string();
        assert!(err(&own, &played).starts_with("player: who plays the character is set at the table"));
        let dice = Sheet { experience_dice: 3, ..played.clone() };
        assert!(err(&played, &dice).starts_with("experience_dice: the experience dice are Dana's stock"));
        // Buying after creation costs the stock: on the table's device.
        let bought = Sheet { experience_dice: 0, ..buy(&own, Purchase::Statistic { statistic: Statistic::Agility }) };
        let bought = Sheet { player: Some(dana), ..bought };
        assert!(err(&played, &bought).starts_with("points: a point bought after creation is paid from Dana's stock"));
        // Everything else still passes, and a character with no player buys from its own dice.
        let hurt = played.set_resource(Resource::HitPoints, 3).unwrap().0;
        assert!(played_by(&table, &played, &hurt).is_ok());
        let own_bought = buy(&own, Purchase::Statistic { statistic: Statistic::Agility });
        assert!(played_by(&table, &own, &own_bought).is_ok());
    }

    #[test]
    fn after_creation_the_sheets_edits_pass() {
        let before = out_of_creation();
        let s = buy(&before, Purchase::Statistic { statistic: Statistic::Agility });
        let s = buy(&s, Purchase::Skill { index: 0 });
        let s = buy(&s, Purchase::NewSkill { name: "Climbing".into(), difficulty: Difficulty::Easy });
        let s = s.remove_quality(1).unwrap().0.set_resource(Resource::HitPoints, 4).unwrap().0;
        let s = s.set_experience_dice(9).0.set_description("A thief with a limp").unwrap().0;
        assert!(sheet(&before, &s).is_ok());
    }

    #[test]
    fn after_creation_nothing_is_taken_back() {
        let before = out_of_creation();
        let mut after = before.clone();
        after.stage = Stage::Creation;
        assert!(refusal(&before, &after).contains("creation is finished and does not start again"));
        let mut lower = before.clone();
        lower.skills.clear();
        assert!(refusal(&before, &lower).contains("the skill “Stealth” was removed or rewritten"));
        let mut easier = before.clone();
        easier.skills[0].difficulty = Difficulty::Easy;
        assert!(refusal(&before, &easier).contains("the skill “Stealth” was removed or rewritten"));
        let mut fewer = buy(&before, Purchase::Skill { index: 0 });
        let raised = fewer.clone();
        fewer.skills[0].points = 1;
        assert!(sheet(&before, &raised).is_ok());
        assert!(
            refusal(&raised, &fewer).contains("the skill “Stealth” went from 2 to 1 points"),
            "{}",
            refusal(&raised, &fewer)
        );
        let no_advantage = before.remove_quality(1).unwrap().0; // the disadvantage: fine
        assert!(sheet(&before, &no_advantage).is_ok());
        let mut no_advantage = before.clone();
        no_advantage.qualities.remove(0);
        assert!(refusal(&before, &no_advantage).contains("the advantage “Keen eyes” was removed or changed"));
        let mut limit = before.clone();
        limit.creation_limit = Some(40);
        assert!(refusal(&before, &limit).contains("the creation limit is set only during creation"));
    }

    #[test]
    fn dropping_the_sheet_is_no_way_back_into_creation() {
        let at = crate::model::now();
        let character = crate::model::Character {
            id: uuid::Uuid::from_u128(1),
            game_id: uuid::Uuid::from_u128(2),
            system: crate::model::System::Scattershot,
            name: "Kit".into(),
            created_at: at,
            updated_at: at,
            revision: 1,
            notes: String::new(),
        };
        let game = Game {
            id: character.game_id,
            name: "The table".into(),
            system: character.system,
            table_settings: Default::default(),
            created_at: at,
            updated_at: at,
            notes: String::new(),
        };
        let record = CharacterRecord { scattershot: Some(out_of_creation()), ..CharacterRecord::new(character) };
        let dropped = CharacterRecord { scattershot: None, ..record.clone() };
        let err = check(|| Ok(ScattershotTable::default()), &game, Some(&record), &dropped).unwrap_err().to_string();
        assert!(err.contains("creation is finished and does not start again"), "{err}");
        assert!(
            check(|| Ok(ScattershotTable::default()), &game, None, &dropped).is_ok(),
            "a new character may start without one"
        );
    }

    #[test]
    fn during_creation_points_come_and_go_within_the_limit() {
        let before = Sheet::new(Some(3));
        let s = buy(&before, Purchase::Statistic { statistic: Statistic::Strength });
        let s = buy(&s, Purchase::NewSkill { name: "Stealth".into(), difficulty: Difficulty::Easy });
        assert!(sheet(&before, &s).is_ok());
        assert!(sheet(&s, &before).is_ok(), "taken back during creation");
        let mut over = s.clone();
        over.statistics.strength = 3;
        assert!(refusal(&s, &over).contains("more than the limit of 3"), "{}", refusal(&s, &over));
        let mut twice = s.clone();
        twice.skills.push(twice.skills[0].clone());
        twice.skills[1].name = "STEALTH".into();
        assert!(refusal(&s, &twice).contains("already has the skill “STEALTH”"), "{}", refusal(&s, &twice));
    }
}
