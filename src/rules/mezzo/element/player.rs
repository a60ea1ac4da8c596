//! Players: influence, roles, free votes and claims.

use super::*;

// ---------------------------------------------------------------------------------------
// Players

/// A player role (a trait of the player). The source defines only the Actor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// May claim characters; casts free votes only on their matters (Creative Control).
    Actor,
}

/// A player at a Mezzo table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub id: Uuid,
    pub name: String,
    pub influence: u32,
    /// Roles taken, each at most once.
    #[serde(default)]
    pub roles: Vec<Role>,
    /// The characters this player claimed, in the order claimed.
    #[serde(default)]
    pub claimed: Vec<Uuid>,
    /// The arc in which the player gave their undisputable memorable-element award.
    #[serde(default)]
    pub free_award_arc: Option<u32>,
}

impl Player {
    /// A player starting an arc: 3 influence, no role, no claim.
    pub fn new(id: Uuid, name: &str) -> Result<Player> {
        Ok(Player {
            id,
            name: clean_name("name", name)?,
            influence: START_INFLUENCE,
            roles: Vec::new(),
            claimed: Vec::new(),
            free_award_arc: None,
        })
    }

    pub fn has_role(&self, role: Role) -> bool {
        self.roles.contains(&role)
    }

    /// In the Actor role: taken, or entered because a claimed character is active in the scene.
    pub fn is_actor(&self, active_in_scene: &[Uuid]) -> bool {
        self.has_role(Role::Actor) || self.claimed.iter().any(|c| active_in_scene.contains(c))
    }
}

/// The free votes `player` casts in a conflict over the actions, details or history of the
/// characters `about` (empty: any other conflict). A conflict may be about several
/// characters (PC against PC): every Actor whose claimed character is among them has
/// Creative Control's 3 (seed: "If a conflict arises over the actions, details, or history
/// of the character"). `active_in_scene` are the characters active in the current scene (an
/// Actor role is entered while one of the player's is).
pub fn free_votes(player: &Player, about: &[Uuid], active_in_scene: &[Uuid]) -> u32 {
    if !player.is_actor(active_in_scene) {
        return FREE_VOTES;
    }
    if about.iter().any(|character| player.claimed.contains(character)) {
        CREATIVE_CONTROL_VOTES
    } else {
        0
    }
}

/// Takes a role.
pub fn take_role(player: &Player, role: Role) -> Result<(Player, Vec<ElementEvent>)> {
    if player.has_role(role) {
        return Err(Error::invalid("role", format!("{} already holds this role", player.name)));
    }
    let mut next = player.clone();
    next.roles.push(role);
    Ok((next, vec![ElementEvent::RoleTaken { player: player.id, role }]))
}

/// Leaves a role. The Actor role cannot be left while a claimed character is active in the
/// scene.
pub fn leave_role(player: &Player, role: Role, active_in_scene: &[Uuid]) -> Result<(Player, Vec<ElementEvent>)> {
    if !player.has_role(role) {
        return Err(Error::invalid("role", format!("{} does not hold this role", player.name)));
    }
    if role == Role::Actor && player.claimed.iter().any(|c| active_in_scene.contains(c)) {
        return Err(Error::invalid(
            "role",
            "a character this player claimed is active in the scene: the Actor role cannot be left until it leaves",
        ));
    }
    let mut next = player.clone();
    next.roles.retain(|&r| r != role);
    Ok((next, vec![ElementEvent::RoleLeft { player: player.id, role }]))
}

/// Spends influence: one vote per point.
pub fn spend_influence(player: &Player, points: u32) -> Result<(Player, Vec<ElementEvent>)> {
    at_least_one("points", points)?;
    let after = spent(player.influence, points, "points", || {
        format!("{} holds {} influence, not {points}", player.name, player.influence)
    })?;
    let event = ElementEvent::InfluenceSpent { player: player.id, points, before: player.influence, after };
    Ok((Player { influence: after, ..player.clone() }, vec![event]))
}

/// Gains influence (a resolved plot hook, a linked seed card).
pub fn gain_influence(player: &Player, points: u32) -> Result<(Player, Vec<ElementEvent>)> {
    at_least_one("points", points)?;
    let mut next = player.clone();
    next.influence = player.influence.checked_add(points).ok_or_else(|| Error::invalid("points", "too many"))?;
    let event =
        ElementEvent::InfluenceGained { player: player.id, points, before: player.influence, after: next.influence };
    Ok((next, vec![event]))
}

/// A new arc: influence does not carry over; every player starts with 3.
pub fn start_arc(player: &Player) -> (Player, Vec<ElementEvent>) {
    let mut next = player.clone();
    next.influence = START_INFLUENCE;
    let event = ElementEvent::InfluenceReset { player: player.id, before: player.influence, after: START_INFLUENCE };
    (next, vec![event])
}

/// An Actor claims a character no other player holds (the table settled any rival claim as a
/// conflict first). The first claim of a character gives it 2 edge slots.
pub fn claim(player: &Player, element: &Element) -> Result<(Player, Element, Vec<ElementEvent>)> {
    if !player.has_role(Role::Actor) {
        return Err(Error::invalid("player", format!("{} must take the Actor role to claim a character", player.name)));
    }
    if element.kind != ElementKind::Character {
        return Err(Error::invalid(
            "element",
            format!("{} is not a character: only characters are claimed", element.name),
        ));
    }
    match element.claimed_by {
        Some(holder) if holder == player.id => {
            return Err(Error::invalid("element", format!("{} already holds {}", player.name, element.name)));
        }
        Some(_) => {
            return Err(Error::invalid("element", format!("{} is claimed by another player", element.name)));
        }
        None => {}
    }
    let mut next_player = player.clone();
    next_player.claimed.push(element.id);
    let mut next = element.clone();
    next.claimed_by = Some(player.id);
    let mut events = vec![ElementEvent::Claimed { player: player.id, element: element.id }];
    if !element.awards.has(SlotAward::FirstClaim) {
        let (awarded, more) = award_edge_slots(&next, SlotAward::FirstClaim)?;
        next = awarded;
        events.extend(more);
    }
    Ok((next_player, next, events))
}

/// Mixed into a character's id to name the Plot Protection edge a claim leaves it.
const CHARACTER_PROTECTION_SALT: u128 = 0x5eed_c1a1_0000_4000_8000_0000_0000_0001;

/// The id of the Plot Protection edge a surrendered claim leaves `character` (one at a time,
/// so one id).
pub fn character_protection_id(character: Uuid) -> Uuid {
    Uuid::from_u128(character.as_u128() ^ CHARACTER_PROTECTION_SALT)
}

/// The claimer surrenders a claim (at any time).
pub fn unclaim(player: &Player, element: &Element) -> Result<(Player, Element, Vec<ElementEvent>)> {
    if element.claimed_by != Some(player.id) {
        return Err(Error::invalid("element", format!("{} does not hold {}", player.name, element.name)));
    }
    let mut next_player = player.clone();
    next_player.claimed.retain(|&c| c != element.id);
    let mut next = element.clone();
    next.claimed_by = None;
    let mut events = vec![ElementEvent::Unclaimed { player: player.id, element: element.id }];
    // Character Protection (seed: "the character gains the Plot Protection edge if they don't
    // have it already"): the protection is the character's, not the claim's (DEV-7). While
    // claimed it shows as the claim's; when the claim is surrendered (or its player leaves)
    // the character keeps it as the edge, given by play (no slot), unless it has one already.
    if !next.traits.iter().any(|t| t.template == Some(Template::PlotProtection)) {
        let edge = Trait::from_template(
            character_protection_id(element.id),
            Template::PlotProtection,
            "Plot Protection",
            Via::Granted,
        );
        let (protected, more) = insert_trait(&next, edge)?;
        next = protected;
        events.extend(more);
    }
    Ok((next_player, next, events))
}
