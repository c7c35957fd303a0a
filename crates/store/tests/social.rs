//! Card preferences and follows (schema 8) on both backends: the lists are replaced as a
//! whole (a refused write changes nothing), follows are listed both ways and bounded,
//! and deleting an account takes its preferences and its follows (both ways) with it.

use dominion_store::{Accounts, CardPrefs, Created, Followed, Store};

#[macro_use]
mod both;
use both::Db;

on_both!(
    card_lists_are_replaced_as_a_whole,
    follows_are_listed_both_ways_and_bounded,
    deleting_an_account_takes_its_preferences_and_follows,
);

fn open(db: &Db) -> (Store, Accounts) {
    let database = db.database();
    let store = Store::open_database(&database).expect("store");
    let accounts = Accounts::open(&database).expect("accounts");
    (store, accounts)
}

fn account(a: &mut Accounts, name: &str) -> i64 {
    match a
        .create_account(name, &name.to_lowercase(), "h", false, 10)
        .unwrap()
    {
        Created::Account(row) => row.id,
        Created::NameTaken => panic!("name taken"),
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn card_lists_are_replaced_as_a_whole(db: &Db) {
    let (_store, mut a) = open(db);
    let ann = account(&mut a, "Ann");
    let bob = account(&mut a, "Bob");
    assert_eq!(a.card_prefs(ann).unwrap(), CardPrefs::default());
    a.set_card_prefs(
        ann,
        &strings(&["witch", "chapel"]),
        &strings(&["moat", "cellar", "village"]),
    )
    .unwrap();
    a.set_card_prefs(bob, &strings(&["militia"]), &[]).unwrap();
    let prefs = a.card_prefs(ann).unwrap();
    assert_eq!(
        prefs.bans,
        strings(&["chapel", "witch"]),
        "in card-id order"
    );
    assert_eq!(prefs.dislikes, strings(&["cellar", "moat", "village"]));
    // Replaced, not added to.
    a.set_card_prefs(ann, &strings(&["mine"]), &strings(&["witch"]))
        .unwrap();
    assert_eq!(
        a.card_prefs(ann).unwrap(),
        CardPrefs {
            bans: strings(&["mine"]),
            dislikes: strings(&["witch"]),
        }
    );
    // A card in both lists is refused, and the transaction leaves the old lists whole.
    assert!(
        a.set_card_prefs(ann, &strings(&["smithy", "moat"]), &strings(&["moat"]))
            .is_err()
    );
    assert_eq!(a.card_prefs(ann).unwrap().bans, strings(&["mine"]));
    assert_eq!(a.card_prefs(ann).unwrap().dislikes, strings(&["witch"]));
    // The connection is usable after the rollback; several accounts at once.
    let both = a.card_prefs_of(&[bob, ann]).unwrap();
    assert_eq!(both[0].bans, strings(&["militia"]));
    assert_eq!(both[1].bans, strings(&["mine"]));
    a.set_card_prefs(ann, &[], &[]).unwrap();
    assert_eq!(a.card_prefs(ann).unwrap(), CardPrefs::default());
    assert_eq!(a.card_prefs(bob).unwrap().bans, strings(&["militia"]));
}

fn follows_are_listed_both_ways_and_bounded(db: &Db) {
    let (_store, mut a) = open(db);
    let ann = account(&mut a, "Ann");
    let bob = account(&mut a, "Bob");
    let cy = account(&mut a, "Cy");
    assert_eq!(a.follow(ann, cy, 20, 2).unwrap(), Followed::Added);
    assert_eq!(a.follow(ann, bob, 21, 2).unwrap(), Followed::Added);
    assert_eq!(a.follow(ann, bob, 22, 2).unwrap(), Followed::Already);
    assert_eq!(a.follow(bob, cy, 23, 2).unwrap(), Followed::Added);
    let names = |rows: Vec<dominion_store::FollowRow>| {
        rows.into_iter()
            .map(|r| (r.name, r.since))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(a.following(ann).unwrap()),
        [("Bob".to_string(), 21), ("Cy".to_string(), 20)]
    );
    assert_eq!(
        names(a.followers(cy).unwrap()),
        [("Ann".to_string(), 20), ("Bob".to_string(), 23)]
    );
    assert!(a.is_following(ann, bob).unwrap());
    assert!(!a.is_following(bob, ann).unwrap());
    // At the bound, a new follow is refused and nothing changes.
    let dee = account(&mut a, "Dee");
    assert_eq!(a.follow(ann, dee, 24, 2).unwrap(), Followed::TooMany);
    assert_eq!(a.following(ann).unwrap().len(), 2);
    assert!(a.unfollow(ann, bob).unwrap());
    assert!(!a.unfollow(ann, bob).unwrap());
    assert_eq!(a.follow(ann, dee, 25, 2).unwrap(), Followed::Added);
    assert_eq!(names(a.followers(bob).unwrap()), []);
    // Whether the followed account blocks its follower.
    a.block(cy, ann, 26).unwrap();
    let blocks = |rows: Vec<dominion_store::FollowRow>| {
        rows.into_iter()
            .map(|r| (r.name, r.blocks))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        blocks(a.following(ann).unwrap()),
        [("Cy".to_string(), true), ("Dee".to_string(), false)]
    );
    assert_eq!(
        blocks(a.followers(cy).unwrap()),
        [("Ann".to_string(), false), ("Bob".to_string(), false)]
    );
    a.block(bob, cy, 27).unwrap();
    assert_eq!(
        blocks(a.followers(cy).unwrap()),
        [("Ann".to_string(), false), ("Bob".to_string(), true)]
    );
}

fn deleting_an_account_takes_its_preferences_and_follows(db: &Db) {
    let (_store, mut a) = open(db);
    let ann = account(&mut a, "Ann");
    let bob = account(&mut a, "Bob");
    let cy = account(&mut a, "Cy");
    a.set_card_prefs(ann, &strings(&["witch"]), &strings(&["moat"]))
        .unwrap();
    a.set_card_prefs(bob, &strings(&["chapel"]), &[]).unwrap();
    a.follow(ann, bob, 20, 10).unwrap();
    a.follow(bob, ann, 20, 10).unwrap();
    a.follow(bob, cy, 20, 10).unwrap();
    a.follow(cy, ann, 20, 10).unwrap();
    assert!(a.delete_account(ann, "deleted player 1").unwrap());
    assert_eq!(a.card_prefs(ann).unwrap(), CardPrefs::default());
    assert_eq!(a.following(ann).unwrap(), []);
    assert_eq!(a.followers(ann).unwrap(), []);
    // The others keep theirs.
    assert_eq!(a.card_prefs(bob).unwrap().bans, strings(&["chapel"]));
    let bob_follows: Vec<String> = a
        .following(bob)
        .unwrap()
        .into_iter()
        .map(|r| r.name)
        .collect();
    assert_eq!(bob_follows, ["Cy"]);
    assert_eq!(a.following(cy).unwrap(), []);
    assert_eq!(a.followers(bob).unwrap(), []);
}
