//! Teams: who may do what (roles), what a team may be called, and where an invite stands.
//!
//! Everything in Bobbin belongs to a team. The rules here are the whole of the authorisation
//! model; the server asks them before every write, so a rule changed here changes everywhere.
//!
//! - `owner`: everything, including deleting the team and making or unmaking owners. A team
//!   always keeps at least one owner.
//! - `admin`: renames the team, manages members (except owners), invites, edits team settings.
//! - `member`: edits the inventories, uses the tools, saves quotes.
//! - `viewer`: reads only.
//!
//! Anyone may leave a team, except its last owner (who hands ownership on, or deletes the team).

use std::{fmt, str::FromStr};

use serde::{Deserialize, Serialize};

/// A member's role in a team, from the most to the least powerful.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Owner,
    Admin,
    Member,
    Viewer,
}

/// What a member may ask to do in a team, beyond reading it (which every role may).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    RenameTeam,
    DeleteTeam,
    /// Change roles and remove people (owners only by owners: see [`check_role_change`]).
    ManageMembers,
    /// See, send and revoke the team's invites.
    ManageInvites,
    EditTeamSettings,
    /// Add, change and remove inventory entries, save quotes.
    EditContent,
}

impl Role {
    pub const ALL: [Self; 4] = [Self::Owner, Self::Admin, Self::Member, Self::Viewer];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Owner => "owner",
            Self::Admin => "admin",
            Self::Member => "member",
            Self::Viewer => "viewer",
        }
    }

    /// Whether this role may do `action`.
    pub fn can(self, action: Action) -> bool {
        match action {
            Action::DeleteTeam => self == Self::Owner,
            Action::RenameTeam | Action::ManageMembers | Action::ManageInvites | Action::EditTeamSettings => {
                matches!(self, Self::Owner | Self::Admin)
            }
            Action::EditContent => self != Self::Viewer,
        }
    }

    /// Whether this role may give someone `role` by invite: admins may invite as any role but
    /// owner, owners as any role, members and viewers not at all. The one rule for what an invite
    /// may carry: checked when it is sent ([`check_invite`]), when its sender's role changes (the
    /// invites the new role could not send are revoked) and when it is accepted (its sender must
    /// still be a member whose role may grant it).
    pub fn may_grant(self, role: Role) -> bool {
        self.can(Action::ManageInvites) && (role != Self::Owner || self == Self::Owner)
    }

    /// The least role that may do `action`, for messages such as "Only admins and owners can...".
    pub fn who_may(action: Action) -> &'static str {
        match action {
            Action::DeleteTeam => "owners",
            Action::RenameTeam | Action::ManageMembers | Action::ManageInvites | Action::EditTeamSettings => {
                "admins and owners"
            }
            Action::EditContent => "members, admins and owners",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a role: use owner, admin, member or viewer")]
pub struct UnknownRole(pub String);

impl FromStr for Role {
    type Err = UnknownRole;

    fn from_str(raw: &str) -> Result<Self, Self::Err> {
        Self::ALL.into_iter().find(|role| role.as_str() == raw).ok_or_else(|| UnknownRole(raw.to_owned()))
    }
}

/// Why a change to a team's members was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MembershipError {
    /// The acting member's role is too low; the message says who may.
    #[error("{0}")]
    Forbidden(&'static str),
    /// The change would leave the team without an owner.
    #[error("A team must keep at least one owner: make someone else an owner first, or delete the team.")]
    LastOwner,
}

/// Whether `actor` may give someone whose role is `current` (`None`: not a member yet) the role
/// `new`. `owners` is how many owners the team has now.
///
/// # Errors
///
/// [`MembershipError::Forbidden`] when the actor may not manage members, or the change makes or
/// unmakes an owner and the actor is not one; [`MembershipError::LastOwner`] when it would
/// demote the only owner.
pub fn check_role_change(
    actor: Role,
    current: Option<Role>,
    new: Role,
    owners: usize,
) -> Result<(), MembershipError> {
    if !actor.can(Action::ManageMembers) {
        return Err(MembershipError::Forbidden("Only admins and owners can change members' roles."));
    }
    if (current == Some(Role::Owner) || new == Role::Owner) && actor != Role::Owner {
        return Err(MembershipError::Forbidden("Only owners can make or unmake owners."));
    }
    if current == Some(Role::Owner) && new != Role::Owner && owners <= 1 {
        return Err(MembershipError::LastOwner);
    }
    Ok(())
}

/// Whether `actor` may remove a member whose role is `target`; `leaving` when the actor removes
/// themselves. `owners` is how many owners the team has now.
///
/// # Errors
///
/// As [`check_role_change`]: removing someone else needs an admin (an owner, to remove an
/// owner), and the last owner can neither leave nor be removed.
pub fn check_removal(actor: Role, target: Role, leaving: bool, owners: usize) -> Result<(), MembershipError> {
    if !leaving {
        if !actor.can(Action::ManageMembers) {
            return Err(MembershipError::Forbidden("Only admins and owners can remove members."));
        }
        if target == Role::Owner && actor != Role::Owner {
            return Err(MembershipError::Forbidden("Only owners can remove an owner."));
        }
    }
    if target == Role::Owner && owners <= 1 {
        return Err(MembershipError::LastOwner);
    }
    Ok(())
}

/// Whether `actor` may invite someone to join as `role`.
///
/// # Errors
///
/// [`MembershipError::Forbidden`] when the actor may not invite, or invites an owner without
/// being one.
pub fn check_invite(actor: Role, role: Role) -> Result<(), MembershipError> {
    if !actor.can(Action::ManageInvites) {
        return Err(MembershipError::Forbidden("Only admins and owners can invite people."));
    }
    if !actor.may_grant(role) {
        return Err(MembershipError::Forbidden("Only owners can invite another owner."));
    }
    Ok(())
}

/// The longest team name, in characters.
pub const TEAM_NAME_MAX_CHARS: usize = 100;

/// A team's name: trimmed, 1 to 100 characters, no control characters, and without
/// bidirectional formatting characters (dropped: see [`crate::text`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamName(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TeamNameError {
    #[error("A team needs a name.")]
    Empty,
    #[error("Use at most {TEAM_NAME_MAX_CHARS} characters.")]
    TooLong,
    #[error("A team name cannot hold line breaks or other control characters.")]
    ControlCharacter,
}

impl TeamNameError {
    /// A stable code for the API.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Empty => "required",
            Self::TooLong => "too_long",
            Self::ControlCharacter => "invalid",
        }
    }
}

impl TeamName {
    /// Parses `raw`, ignoring surrounding spaces.
    ///
    /// # Errors
    ///
    /// When the trimmed name is empty, longer than [`TEAM_NAME_MAX_CHARS`], or holds a control
    /// character.
    pub fn parse(raw: &str) -> Result<Self, TeamNameError> {
        // Bidirectional overrides go first (`crate::text`): a name must read as it is.
        let name = crate::text::without_bidi_controls(raw);
        let name = name.as_str();
        if name.is_empty() {
            return Err(TeamNameError::Empty);
        }
        if name.chars().count() > TEAM_NAME_MAX_CHARS {
            return Err(TeamNameError::TooLong);
        }
        if name.chars().any(char::is_control) {
            return Err(TeamNameError::ControlCharacter);
        }
        Ok(Self(name.to_owned()))
    }

    /// The name a new person's first team gets (`{email}'s Team`: docs/behaviour.md, "Team start-up
    /// and selection"), cut to the length limit for very long addresses.
    pub fn personal(email: &str) -> Self {
        let suffix = "'s Team";
        let room = TEAM_NAME_MAX_CHARS - suffix.chars().count();
        let owner: String = email
            .trim()
            .chars()
            .filter(|c| !c.is_control() && !crate::text::is_bidi_control(*c))
            .take(room)
            .collect();
        Self(format!("{owner}{suffix}"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// How long an invite can be accepted: 7 days.
pub const INVITE_LIFETIME_SECONDS: i64 = 7 * 24 * 60 * 60;

/// Where an invite stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum InviteStatus {
    Pending,
    Accepted,
    Revoked,
    Expired,
}

impl InviteStatus {
    /// The status from what is stored (times in Unix seconds). Acceptance and revocation are
    /// final; an invite neither accepted nor revoked expires at `expires_at`.
    pub fn of(accepted_at: Option<i64>, revoked_at: Option<i64>, expires_at: i64, now: i64) -> Self {
        if accepted_at.is_some() {
            Self::Accepted
        } else if revoked_at.is_some() {
            Self::Revoked
        } else if now >= expires_at {
            Self::Expired
        } else {
            Self::Pending
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_round_trip_through_their_names() {
        for role in Role::ALL {
            assert_eq!(role.as_str().parse::<Role>(), Ok(role));
        }
        assert!("Owner".parse::<Role>().is_err(), "roles are lower-case");
        assert!("superuser".parse::<Role>().is_err());
    }

    #[test]
    fn each_role_may_do_what_the_roles_table_says() {
        use Action::*;
        let table = [
            (Role::Owner, [true, true, true, true, true, true]),
            (Role::Admin, [true, false, true, true, true, true]),
            (Role::Member, [false, false, false, false, false, true]),
            (Role::Viewer, [false, false, false, false, false, false]),
        ];
        for (role, allowed) in table {
            let actions =
                [RenameTeam, DeleteTeam, ManageMembers, ManageInvites, EditTeamSettings, EditContent];
            for (action, expected) in actions.into_iter().zip(allowed) {
                assert_eq!(role.can(action), expected, "{role} {action:?}");
            }
        }
    }

    #[test]
    fn only_owners_make_or_unmake_owners() {
        assert!(check_role_change(Role::Admin, Some(Role::Member), Role::Admin, 1).is_ok());
        assert!(check_role_change(Role::Admin, None, Role::Viewer, 1).is_ok());
        assert!(matches!(
            check_role_change(Role::Admin, Some(Role::Member), Role::Owner, 1),
            Err(MembershipError::Forbidden(_))
        ));
        assert!(matches!(
            check_role_change(Role::Admin, Some(Role::Owner), Role::Admin, 2),
            Err(MembershipError::Forbidden(_))
        ));
        assert!(check_role_change(Role::Owner, Some(Role::Member), Role::Owner, 1).is_ok());
        assert!(check_role_change(Role::Owner, Some(Role::Owner), Role::Admin, 2).is_ok());
    }

    #[test]
    fn members_and_viewers_change_no_roles() {
        for actor in [Role::Member, Role::Viewer] {
            assert!(matches!(
                check_role_change(actor, Some(Role::Viewer), Role::Member, 1),
                Err(MembershipError::Forbidden(_))
            ));
        }
    }

    #[test]
    fn the_last_owner_can_be_neither_demoted_nor_removed_nor_leave() {
        assert_eq!(
            check_role_change(Role::Owner, Some(Role::Owner), Role::Admin, 1),
            Err(MembershipError::LastOwner)
        );
        assert_eq!(check_removal(Role::Owner, Role::Owner, true, 1), Err(MembershipError::LastOwner));
        assert!(check_removal(Role::Owner, Role::Owner, true, 2).is_ok());
        assert!(check_removal(Role::Owner, Role::Owner, false, 2).is_ok());
    }

    #[test]
    fn anyone_may_leave_but_only_admins_remove_others() {
        for role in [Role::Admin, Role::Member, Role::Viewer] {
            assert!(check_removal(role, role, true, 1).is_ok(), "{role} leaving");
        }
        assert!(check_removal(Role::Admin, Role::Member, false, 1).is_ok());
        assert!(matches!(
            check_removal(Role::Admin, Role::Owner, false, 2),
            Err(MembershipError::Forbidden(_))
        ));
        assert!(matches!(
            check_removal(Role::Member, Role::Viewer, false, 1),
            Err(MembershipError::Forbidden(_))
        ));
    }

    #[test]
    fn admins_invite_anyone_but_an_owner() {
        assert!(check_invite(Role::Admin, Role::Admin).is_ok());
        assert!(check_invite(Role::Owner, Role::Owner).is_ok());
        assert!(matches!(check_invite(Role::Admin, Role::Owner), Err(MembershipError::Forbidden(_))));
        assert!(matches!(check_invite(Role::Member, Role::Viewer), Err(MembershipError::Forbidden(_))));
    }

    #[test]
    fn owners_grant_every_role_admins_all_but_owner_and_no_one_else_any() {
        let granted =
            |actor: Role| Role::ALL.into_iter().filter(|role| actor.may_grant(*role)).collect::<Vec<_>>();
        assert_eq!(granted(Role::Owner), Role::ALL);
        assert_eq!(granted(Role::Admin), [Role::Admin, Role::Member, Role::Viewer]);
        assert_eq!(granted(Role::Member), []);
        assert_eq!(granted(Role::Viewer), []);
        for actor in Role::ALL {
            for role in Role::ALL {
                assert_eq!(
                    check_invite(actor, role).is_ok(),
                    actor.may_grant(role),
                    "{actor} inviting a {role}"
                );
            }
        }
    }

    #[test]
    fn team_names_are_trimmed_and_bounded() {
        assert_eq!(TeamName::parse("  Stitch Shop ").unwrap().as_str(), "Stitch Shop");
        assert_eq!(TeamName::parse("   "), Err(TeamNameError::Empty));
        assert_eq!(TeamName::parse(&"a".repeat(101)), Err(TeamNameError::TooLong));
        assert!(TeamName::parse(&"é".repeat(100)).is_ok(), "characters, not bytes");
        assert_eq!(TeamName::parse("Line\nbreak"), Err(TeamNameError::ControlCharacter));
        // A right-to-left override would make the name read as something else.
        assert_eq!(TeamName::parse("Stitch \u{202E}oC").unwrap().as_str(), "Stitch oC");
        assert_eq!(TeamName::parse("\u{2066}\u{202E}"), Err(TeamNameError::Empty));
    }

    #[test]
    fn a_personal_team_is_named_after_the_address_within_the_limit() {
        assert_eq!(TeamName::personal("ada@example.com").as_str(), "ada@example.com's Team");
        let long = format!("{}@example.com", "a".repeat(300));
        let name = TeamName::personal(&long);
        assert_eq!(name.as_str().chars().count(), TEAM_NAME_MAX_CHARS);
        assert!(TeamName::parse(name.as_str()).is_ok());
    }

    #[test]
    fn an_invite_is_pending_until_accepted_revoked_or_expired() {
        let expires = 1_000;
        assert_eq!(InviteStatus::of(None, None, expires, 999), InviteStatus::Pending);
        assert_eq!(InviteStatus::of(None, None, expires, 1_000), InviteStatus::Expired);
        assert_eq!(InviteStatus::of(Some(10), None, expires, 2_000), InviteStatus::Accepted);
        assert_eq!(InviteStatus::of(None, Some(10), expires, 2_000), InviteStatus::Revoked);
    }
}
