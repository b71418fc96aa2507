import GRDB

/// The panel's own tables. Versions live in `panel_schema_version`, not in GRDB's
/// `grdb_migrations` or `user_version`, which belong to the backend if it wants them.
enum PanelMigrations {
    /// Append only: a released migration is never edited.
    static let steps: [(version: Int, sql: String)] = [
        (
            1,
            """
            CREATE TABLE panel_admins (
              id             INTEGER PRIMARY KEY,
              email          TEXT NOT NULL COLLATE NOCASE UNIQUE,
              password_hash  TEXT NOT NULL,
              role           TEXT NOT NULL CHECK (role IN ('support', 'marketing', 'admin')),
              created_at     TEXT NOT NULL,
              disabled_at    TEXT
            );
            CREATE TABLE panel_sessions (
              token_hash      TEXT PRIMARY KEY,
              admin_id        INTEGER NOT NULL REFERENCES panel_admins(id) ON DELETE CASCADE,
              created_at      TEXT NOT NULL,
              last_seen_at    TEXT NOT NULL,
              expires_at      TEXT NOT NULL,
              client_address  TEXT,
              user_agent      TEXT
            );
            CREATE INDEX panel_sessions_admin ON panel_sessions(admin_id);
            CREATE TABLE panel_audit_log (
              id              INTEGER PRIMARY KEY,
              at              TEXT NOT NULL,
              admin_id        INTEGER,
              actor_email     TEXT,
              client_address  TEXT,
              action          TEXT NOT NULL,
              target          TEXT,
              detail          TEXT
            );
            CREATE INDEX panel_audit_log_at ON panel_audit_log(at);
            CREATE INDEX panel_audit_log_admin ON panel_audit_log(admin_id, at);
            CREATE TRIGGER panel_audit_log_no_update BEFORE UPDATE ON panel_audit_log
              BEGIN SELECT RAISE(ABORT, 'panel_audit_log is append-only'); END;
            CREATE TRIGGER panel_audit_log_no_delete BEFORE DELETE ON panel_audit_log
              BEGIN SELECT RAISE(ABORT, 'panel_audit_log is append-only'); END;
            """
        ),
        (
            2,
            """
            CREATE TABLE panel_login_throttle (
              key              TEXT PRIMARY KEY,
              failures         INTEGER NOT NULL,
              last_failure_at  TEXT NOT NULL,
              locked_until     TEXT
            );
            """
        ),
        // The audit browser filters by actor, action or target and pages by id.
        (
            3,
            """
            CREATE INDEX panel_audit_log_actor ON panel_audit_log(actor_email COLLATE NOCASE, id);
            CREATE INDEX panel_audit_log_action ON panel_audit_log(action, id);
            CREATE INDEX panel_audit_log_target ON panel_audit_log(target, id);
            """
        ),
        // Two-factor sign-in: a TOTP key per account (unconfirmed while enrolling), hashed
        // recovery codes, and the short-lived step between password and code.
        (
            4,
            """
            CREATE TABLE panel_two_factor (
              admin_id      INTEGER PRIMARY KEY REFERENCES panel_admins(id) ON DELETE CASCADE,
              secret        TEXT NOT NULL,
              confirmed_at  TEXT,
              last_step     INTEGER
            );
            CREATE TABLE panel_recovery_codes (
              admin_id    INTEGER NOT NULL REFERENCES panel_admins(id) ON DELETE CASCADE,
              code_hash   TEXT NOT NULL,
              created_at  TEXT NOT NULL,
              used_at     TEXT,
              PRIMARY KEY (admin_id, code_hash)
            );
            CREATE TABLE panel_login_challenges (
              token_hash  TEXT PRIMARY KEY,
              admin_id    INTEGER NOT NULL REFERENCES panel_admins(id) ON DELETE CASCADE,
              expires_at  TEXT NOT NULL,
              failures    INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX panel_login_challenges_admin ON panel_login_challenges(admin_id);
            """
        ),
        // A password the panel generated is one-time: it must be changed at the first
        // sign-in and stops working after a day. NULL: a password its owner chose.
        (
            5,
            """
            ALTER TABLE panel_admins ADD COLUMN password_expires_at TEXT;
            """
        ),
        // The sweeper finds what has run out by these.
        (
            6,
            """
            CREATE INDEX panel_sessions_expires ON panel_sessions(expires_at);
            CREATE INDEX panel_sessions_last_seen ON panel_sessions(last_seen_at);
            CREATE INDEX panel_login_challenges_expires ON panel_login_challenges(expires_at);
            """
        ),
        // Tokens a provider called dead, by their SHA-256: never the token itself, and never
        // a write to the app's `devices`. A device that registers a new token is alive again.
        (
            7,
            """
            CREATE TABLE panel_dead_tokens (
              token_sha256  TEXT PRIMARY KEY,
              device_id     INTEGER NOT NULL,
              provider      TEXT NOT NULL,
              reason        TEXT NOT NULL,
              recorded_at   TEXT NOT NULL
            );
            CREATE INDEX panel_dead_tokens_device ON panel_dead_tokens(device_id);
            """
        ),
        // Campaigns and their outbox: one row per (campaign, device), its id the delivery id
        // the providers see, its state moved to 'sending' and committed before the request
        // goes out, so that a crash leaves nothing that could be sent twice.
        (
            8,
            """
            CREATE TABLE panel_campaigns (
              id            INTEGER PRIMARY KEY,
              title         TEXT NOT NULL,
              body          TEXT NOT NULL,
              deep_link     TEXT,
              ttl_seconds   INTEGER NOT NULL,
              segment       TEXT NOT NULL,
              status        TEXT NOT NULL
                CHECK (status IN ('draft', 'materialising', 'sending', 'paused', 'cancelled', 'finished')),
              status_detail TEXT,
              created_by    INTEGER,
              created_at    TEXT NOT NULL,
              launched_at   TEXT,
              send_at       TEXT,
              local_time    TEXT,
              finished_at   TEXT,
              materialised_up_to INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE panel_deliveries (
              id           INTEGER PRIMARY KEY,
              campaign_id  INTEGER NOT NULL REFERENCES panel_campaigns(id),
              device_id    INTEGER NOT NULL,
              user_id      INTEGER NOT NULL,
              state        TEXT NOT NULL
                CHECK (state IN ('queued', 'sending', 'accepted', 'retry', 'failed', 'dead', 'unknown', 'cancelled')),
              due_at       TEXT NOT NULL,
              attempts     INTEGER NOT NULL DEFAULT 0,
              detail       TEXT,
              message_id   TEXT,
              updated_at   TEXT NOT NULL,
              UNIQUE (campaign_id, device_id)
            );
            CREATE INDEX panel_deliveries_due ON panel_deliveries(campaign_id, due_at)
              WHERE state IN ('queued', 'retry');
            CREATE INDEX panel_deliveries_sending ON panel_deliveries(id) WHERE state = 'sending';
            CREATE INDEX panel_deliveries_campaign_state ON panel_deliveries(campaign_id, state);
            CREATE INDEX panel_deliveries_user ON panel_deliveries(user_id, updated_at);
            """
        ),
        // Templates, a throttle per campaign, and what devices confirmed (0 nothing, 1
        // received, 2 opened) counted beside the state from one index. Running totals for
        // the campaigns list, kept in the transactions that change what they count, so the
        // list never counts a million deliveries per campaign.
        (
            9,
            """
            ALTER TABLE panel_campaigns ADD COLUMN template TEXT;
            ALTER TABLE panel_campaigns ADD COLUMN per_second INTEGER;
            ALTER TABLE panel_campaigns ADD COLUMN audience_count INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE panel_campaigns ADD COLUMN accepted_count INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE panel_campaigns ADD COLUMN received_count INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE panel_campaigns ADD COLUMN opened_count INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE panel_deliveries ADD COLUMN receipt INTEGER NOT NULL DEFAULT 0;
            DROP INDEX panel_deliveries_campaign_state;
            CREATE INDEX panel_deliveries_counts ON panel_deliveries(campaign_id, state, receipt);
            -- The frequency cap's count per user, from the index alone: only pushes that went
            -- (or may have gone) out are in it, so a launch's queued rows cost it nothing.
            CREATE INDEX panel_deliveries_cap ON panel_deliveries(user_id, updated_at, campaign_id)
              WHERE state IN ('accepted', 'sending', 'unknown');
            CREATE TABLE panel_receipt_cursor (
              id          INTEGER PRIMARY KEY CHECK (id = 1),
              created_at  TEXT NOT NULL,
              receipt_id  INTEGER NOT NULL
            );
            """
        ),
        // Campaigns in operation. A deleted draft keeps its row (and so its id, which the
        // audit log names) with `deleted_at` set. Receipts are read by their id, never by a time a host's
        // clock wrote: the time cursor goes. Receipts that confirm no push that went out are
        // counted apart. Queued rows of other launched campaigns count for the frequency cap,
        // found by user. Test users are the only recipients of test sends. A delivery over
        // the cap when claimed becomes `capped` (the state CHECK is widened in Swift below).
        (
            10,
            """
            ALTER TABLE panel_campaigns ADD COLUMN name TEXT;
            ALTER TABLE panel_campaigns ADD COLUMN ignored_receipts INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE panel_campaigns ADD COLUMN deleted_at TEXT;
            CREATE INDEX panel_deliveries_waiting ON panel_deliveries(user_id, campaign_id)
              WHERE state IN ('queued', 'retry');
            DROP TABLE panel_receipt_cursor;
            CREATE TABLE panel_receipt_reader (
              id               INTEGER PRIMARY KEY CHECK (id = 1),
              last_receipt_id  INTEGER NOT NULL
            );
            CREATE TABLE panel_test_users (
              user_id   INTEGER PRIMARY KEY,
              added_by  INTEGER,
              added_at  TEXT NOT NULL
            );
            """
        ),
        // Measuring what a campaign changed. Each reachable user drawn at the freeze is a
        // member: held out (never sent to), given a variant, or (with a winner test) one of
        // the rest, who get the winner once it is chosen. Rows are per user, so the report
        // compares people, not devices. Variants B to D of the message live beside the
        // campaign; every delivery records the variant it carries. Rest deliveries wait
        // with a `due_at` of '9999-12-31 23:59:59' until the winner is chosen. A report
        // whose window closed is kept as it was last computed.
        (
            11,
            """
            ALTER TABLE panel_campaigns ADD COLUMN holdout_percent INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE panel_campaigns ADD COLUMN goal TEXT;
            ALTER TABLE panel_campaigns ADD COLUMN goal_days INTEGER NOT NULL DEFAULT 3;
            ALTER TABLE panel_campaigns ADD COLUMN test_percent INTEGER;
            ALTER TABLE panel_campaigns ADD COLUMN winner_wait_hours INTEGER;
            ALTER TABLE panel_campaigns ADD COLUMN winner TEXT;
            ALTER TABLE panel_campaigns ADD COLUMN winner_at TEXT;
            ALTER TABLE panel_campaigns ADD COLUMN winner_detail TEXT;
            ALTER TABLE panel_deliveries ADD COLUMN variant TEXT;
            CREATE TABLE panel_campaign_variants (
              campaign_id  INTEGER NOT NULL REFERENCES panel_campaigns(id),
              variant      TEXT NOT NULL CHECK (variant IN ('b', 'c', 'd')),
              title        TEXT NOT NULL,
              body         TEXT NOT NULL,
              template     TEXT,
              PRIMARY KEY (campaign_id, variant)
            ) WITHOUT ROWID;
            CREATE TABLE panel_campaign_members (
              campaign_id  INTEGER NOT NULL,
              user_id      INTEGER NOT NULL,
              arm          TEXT NOT NULL CHECK (arm IN ('holdout', 'a', 'b', 'c', 'd', 'rest')),
              platform     TEXT NOT NULL,
              PRIMARY KEY (campaign_id, user_id)
            ) WITHOUT ROWID;
            CREATE TABLE panel_campaign_reports (
              campaign_id  INTEGER PRIMARY KEY,
              as_of        TEXT NOT NULL,
              report       TEXT NOT NULL
            );
            """
        ),
        // What the sender confirmed at the launch (devices to send to, users held out), so
        // that the list shows it beside what the freeze wrote; and the launches by time, so
        // that a confirmation finds the latest launch of any campaign with an indexed read.
        (
            12,
            """
            ALTER TABLE panel_campaigns ADD COLUMN confirmed_devices INTEGER;
            ALTER TABLE panel_campaigns ADD COLUMN confirmed_held_out INTEGER;
            CREATE INDEX panel_campaigns_launched ON panel_campaigns(launched_at);
            """
        ),
        // Every rule is checked again when a delivery falls due: one that no longer holds
        // settles it `excluded` (the state CHECK is widened in Swift below), its reason in
        // `detail`.
        (13, "SELECT 1"),
        // A test user gets at most so many test sends a day, from all staff together: counted
        // from the audit log by target, action and time, whatever else the log holds of them.
        (
            14,
            """
            CREATE INDEX panel_audit_log_test_sends ON panel_audit_log(target, action, at);
            """
        ),
        // The sign-in throttle's keys were text built from what was typed ("pair:" email "|"
        // address), so an email such as `victim@corp.test|10.0.0.2` + NUL named another
        // person's pair and locked it. Each part is now a column of its own: what kind of
        // count, the email ('' for an address's count) and the client address ('' for an
        // account's count). Counts in force are carried over, split at the last '|' (an
        // address never holds one). The audit log is listed by time, not by id (rows
        // written in batches carry their events' earlier times), so its filter indexes end
        // in (at, id), the keyset the pages walk.
        (
            15,
            """
            ALTER TABLE panel_login_throttle RENAME TO panel_login_throttle_by_text;
            CREATE TABLE panel_login_throttle (
              kind             TEXT NOT NULL CHECK (kind IN ('pair', 'address', 'account')),
              email            TEXT NOT NULL,
              address          TEXT NOT NULL,
              failures         INTEGER NOT NULL,
              last_failure_at  TEXT NOT NULL,
              locked_until     TEXT,
              PRIMARY KEY (kind, email, address)
            );
            INSERT OR REPLACE INTO panel_login_throttle (kind, email, address, failures, last_failure_at, locked_until)
              SELECT 'address', '', substr(key, 9), failures, last_failure_at, locked_until
              FROM panel_login_throttle_by_text WHERE substr(key, 1, 8) = 'address:';
            INSERT OR REPLACE INTO panel_login_throttle (kind, email, address, failures, last_failure_at, locked_until)
              SELECT 'account', substr(key, 9), '', failures, last_failure_at, locked_until
              FROM panel_login_throttle_by_text WHERE substr(key, 1, 8) = 'account:';
            INSERT OR REPLACE INTO panel_login_throttle (kind, email, address, failures, last_failure_at, locked_until)
              SELECT 'pair', substr(head, 1, length(head) - 1), substr(rest, length(head) + 1),
                     failures, last_failure_at, locked_until
              FROM (SELECT substr(key, 6) AS rest, rtrim(substr(key, 6), replace(substr(key, 6), '|', '')) AS head,
                           failures, last_failure_at, locked_until
                    FROM panel_login_throttle_by_text WHERE substr(key, 1, 5) = 'pair:')
              WHERE head <> '';
            DROP TABLE panel_login_throttle_by_text;
            DROP INDEX panel_audit_log_actor;
            DROP INDEX panel_audit_log_action;
            DROP INDEX panel_audit_log_target;
            CREATE INDEX panel_audit_log_actor ON panel_audit_log(actor_email COLLATE NOCASE, at, id);
            CREATE INDEX panel_audit_log_action ON panel_audit_log(action, at, id);
            CREATE INDEX panel_audit_log_target ON panel_audit_log(target, at, id);
            """
        ),
        // Journeys (issue 34): a journey is a campaign row of kind 'journey', so the outbox,
        // dispatcher, throttles, receipts and the frequency cap serve both; its trigger and
        // rules beside it. An entry is unique per journey, user and occurrence (the stored time
        // it was drawn from): a crash, a restart, a second evaluation or a second panel
        // process enters nobody twice. Entries by user and time, for the re-entry rule; by
        // time, for the daily limit and the report; those still open by time, for the expiry;
        // those sent by user and time, for the frequency cap (a journey's every push counts).
        // A journey delivery names its entry: the claim checks the entry's rules.
        (
            16,
            """
            ALTER TABLE panel_campaigns ADD COLUMN kind TEXT NOT NULL DEFAULT 'campaign'
              CHECK (kind IN ('campaign', 'journey'));
            CREATE TABLE panel_journeys (
              campaign_id      INTEGER PRIMARY KEY REFERENCES panel_campaigns(id),
              trigger          TEXT NOT NULL CHECK (trigger IN ('inactive_days', 'subscription_ending', 'first_days')),
              trigger_days     INTEGER NOT NULL,
              fewer_items      INTEGER,
              send_at          TEXT NOT NULL CHECK (send_at IN ('daily_time', 'window')),
              window_from      INTEGER,
              window_to        INTEGER,
              reentry_days     INTEGER,
              daily_limit      INTEGER,
              evaluated_until  INTEGER,
              pass_after       INTEGER,
              goal_cursor      INTEGER NOT NULL DEFAULT 0,
              entered_count    INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE panel_journey_entries (
              id           INTEGER PRIMARY KEY,
              journey_id   INTEGER NOT NULL REFERENCES panel_journeys(campaign_id),
              user_id      INTEGER NOT NULL,
              occurrence   TEXT NOT NULL,
              entered_at   TEXT NOT NULL,
              state        TEXT NOT NULL
                CHECK (state IN ('entered', 'held_out', 'sent', 'exited', 'expired', 'capped', 'limited')),
              arm          TEXT,
              due_at       TEXT,
              settled_at   TEXT,
              receipt      INTEGER NOT NULL DEFAULT 0,
              converted    INTEGER,
              detail       TEXT,
              UNIQUE (journey_id, user_id, occurrence)
            );
            CREATE INDEX panel_journey_entries_user ON panel_journey_entries(journey_id, user_id, entered_at);
            CREATE INDEX panel_journey_entries_time ON panel_journey_entries(journey_id, entered_at);
            CREATE INDEX panel_journey_entries_open ON panel_journey_entries(entered_at) WHERE state = 'entered';
            CREATE INDEX panel_journey_entries_sent ON panel_journey_entries(user_id, settled_at) WHERE state = 'sent';
            ALTER TABLE panel_deliveries ADD COLUMN entry_id INTEGER;
            CREATE INDEX panel_deliveries_entry ON panel_deliveries(entry_id) WHERE entry_id IS NOT NULL;
            """
        ),
        // Each user's usual hour (issue 35). A user's activity days (a 24-bit mask of local
        // hours per local day, 7 bytes a day) and what they make, kept up to date in the
        // background from the events' indexes; rows are made again when their oldest day
        // leaves the window. Peers' hours per platform and locale ('*', '*': everyone's).
        // A campaign or journey may send at each user's usual hour with a control share at
        // the fixed time; members and entries record which group they are in, and running
        // counts per group, basis, hour and move are kept with the freeze and the entries.
        // The panel's own time of a delivery's first open receipt, for opens within a day.
        (
            17,
            """
            CREATE TABLE panel_usual_hours (
              user_id      INTEGER PRIMARY KEY,
              days         BLOB NOT NULL,
              hour         INTEGER NOT NULL,
              active_days  INTEGER NOT NULL,
              hour_days    INTEGER NOT NULL,
              platform     TEXT NOT NULL,
              locale       TEXT NOT NULL,
              zone         TEXT NOT NULL,
              recheck_at   INTEGER NOT NULL
            );
            CREATE INDEX panel_usual_hours_recheck ON panel_usual_hours(recheck_at);
            CREATE INDEX panel_usual_hours_peers ON panel_usual_hours(platform, locale, hour) WHERE active_days >= 5;
            CREATE TABLE panel_usual_hour_peers (
              platform  TEXT NOT NULL,
              locale    TEXT NOT NULL,
              hour      INTEGER NOT NULL,
              users     INTEGER NOT NULL,
              PRIMARY KEY (platform, locale)
            ) WITHOUT ROWID;
            CREATE TABLE panel_usual_hour_state (
              id            INTEGER PRIMARY KEY CHECK (id = 1),
              event_cursor  INTEGER NOT NULL,
              build_after   INTEGER,
              build_since   TEXT,
              built_at      TEXT,
              refreshed_at  TEXT
            );
            ALTER TABLE panel_campaigns ADD COLUMN timing TEXT CHECK (timing IN ('usual_hour'));
            ALTER TABLE panel_campaigns ADD COLUMN timing_control_percent INTEGER NOT NULL DEFAULT 10;
            ALTER TABLE panel_campaign_members ADD COLUMN timing TEXT;
            ALTER TABLE panel_campaign_members ADD COLUMN due_at TEXT;
            ALTER TABLE panel_journey_entries ADD COLUMN timing TEXT;
            ALTER TABLE panel_journey_entries ADD COLUMN opened_in_day INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE panel_deliveries ADD COLUMN opened_at TEXT;
            CREATE TABLE panel_timing_counts (
              campaign_id  INTEGER NOT NULL,
              timing       TEXT NOT NULL,
              basis        TEXT NOT NULL,
              hour         INTEGER NOT NULL,
              moved        TEXT NOT NULL,
              users        INTEGER NOT NULL,
              PRIMARY KEY (campaign_id, timing, basis, hour, moved)
            ) WITHOUT ROWID;
            """
        ),
        // Issue 46: one staff member's looks at one user (or one draft's preview) within 30
        // minutes are one row that counts them (`looks`, `last_at`, the pages seen in
        // `detail`): the only update the log takes, and only that. A preview is one row; the users it showed are listed
        // beside it, so that the log filtered by `user:N` still finds the look.
        (
            18,
            """
            ALTER TABLE panel_audit_log ADD COLUMN looks INTEGER NOT NULL DEFAULT 1;
            ALTER TABLE panel_audit_log ADD COLUMN last_at TEXT;
            DROP TRIGGER panel_audit_log_no_update;
            CREATE TRIGGER panel_audit_log_no_update BEFORE UPDATE ON panel_audit_log
              WHEN NOT (OLD.action IN ('user_viewed', 'user_activity_viewed', 'campaign_previewed')
                AND NEW.id IS OLD.id AND NEW.at IS OLD.at AND NEW.admin_id IS OLD.admin_id
                AND NEW.actor_email IS OLD.actor_email AND NEW.client_address IS OLD.client_address
                AND NEW.action IS OLD.action AND NEW.target IS OLD.target
                AND NEW.looks = OLD.looks + 1 AND NEW.last_at >= COALESCE(OLD.last_at, OLD.at))
              BEGIN SELECT RAISE(ABORT, 'panel_audit_log is append-only'); END;
            CREATE TABLE panel_audit_users (
              user_id   INTEGER NOT NULL,
              audit_id  INTEGER NOT NULL REFERENCES panel_audit_log(id),
              PRIMARY KEY (user_id, audit_id)
            ) WITHOUT ROWID;
            CREATE TRIGGER panel_audit_users_no_update BEFORE UPDATE ON panel_audit_users
              BEGIN SELECT RAISE(ABORT, 'panel_audit_users is append-only'); END;
            CREATE TRIGGER panel_audit_users_no_delete BEFORE DELETE ON panel_audit_users
              BEGIN SELECT RAISE(ABORT, 'panel_audit_users is append-only'); END;
            """
        ),
        // Issue 47: a campaign's counts by state and receipt, kept by triggers as each row of
        // `panel_deliveries` is written, so that the live page reads a dozen rows where it
        // counted a million. Campaigns with deliveries before this step keep being counted
        // from the index (`counts_kept = 0`): filling their counts here would hold the
        // backend's write lock for seconds at millions of rows. A step that rebuilds
        // `panel_deliveries` must make these triggers again.
        (
            19,
            """
            ALTER TABLE panel_campaigns ADD COLUMN counts_kept INTEGER NOT NULL DEFAULT 1;
            UPDATE panel_campaigns SET counts_kept = 0
              WHERE EXISTS (SELECT 1 FROM panel_deliveries d WHERE d.campaign_id = panel_campaigns.id);
            CREATE TABLE panel_delivery_counts (
              campaign_id  INTEGER NOT NULL,
              state        TEXT NOT NULL,
              receipt      INTEGER NOT NULL,
              count        INTEGER NOT NULL,
              PRIMARY KEY (campaign_id, state, receipt)
            ) WITHOUT ROWID;
            CREATE TRIGGER panel_delivery_counts_insert AFTER INSERT ON panel_deliveries
              WHEN (SELECT counts_kept FROM panel_campaigns WHERE id = NEW.campaign_id) = 1
              BEGIN
                INSERT INTO panel_delivery_counts (campaign_id, state, receipt, count)
                  VALUES (NEW.campaign_id, NEW.state, NEW.receipt, 1)
                  ON CONFLICT (campaign_id, state, receipt) DO UPDATE SET count = count + 1;
              END;
            CREATE TRIGGER panel_delivery_counts_update AFTER UPDATE OF campaign_id, state, receipt ON panel_deliveries
              WHEN OLD.campaign_id IS NOT NEW.campaign_id OR OLD.state IS NOT NEW.state
                OR OLD.receipt IS NOT NEW.receipt
              BEGIN
                UPDATE panel_delivery_counts SET count = count - 1
                  WHERE campaign_id = OLD.campaign_id AND state = OLD.state AND receipt = OLD.receipt
                    AND (SELECT counts_kept FROM panel_campaigns WHERE id = OLD.campaign_id) = 1;
                INSERT INTO panel_delivery_counts (campaign_id, state, receipt, count)
                  SELECT NEW.campaign_id, NEW.state, NEW.receipt, 1
                  WHERE (SELECT counts_kept FROM panel_campaigns WHERE id = NEW.campaign_id) = 1
                  ON CONFLICT (campaign_id, state, receipt) DO UPDATE SET count = count + 1;
              END;
            CREATE TRIGGER panel_delivery_counts_delete AFTER DELETE ON panel_deliveries
              WHEN (SELECT counts_kept FROM panel_campaigns WHERE id = OLD.campaign_id) = 1
              BEGIN
                UPDATE panel_delivery_counts SET count = count - 1
                  WHERE campaign_id = OLD.campaign_id AND state = OLD.state AND receipt = OLD.receipt;
              END;
            """
        ),
        // The global control group (issue 48): who is in it is a keyed draw on the user id
        // (`GlobalControlDraw`), so no table of members is kept; only its key, made once here
        // from SQLite's random numbers and never shown, and each change of the share, the
        // latest of which is in force. The freeze counts the members it left out.
        (
            20,
            """
            CREATE TABLE panel_global_control_key (
              a  INTEGER NOT NULL CHECK (a BETWEEN 1 AND 2147483646),
              b  INTEGER NOT NULL CHECK (b BETWEEN 0 AND 2147483646),
              c  INTEGER NOT NULL CHECK (c BETWEEN 0 AND 2147483646),
              d  INTEGER NOT NULL CHECK (d BETWEEN 1 AND 2147483646)
            );
            INSERT INTO panel_global_control_key (a, b, c, d)
              SELECT abs(random() % 2147483646) + 1, abs(random() % 2147483647), abs(random() % 2147483647),
                     abs(random() % 2147483646) + 1;
            CREATE TRIGGER panel_global_control_key_no_update BEFORE UPDATE ON panel_global_control_key
              BEGIN SELECT RAISE(ABORT, 'the global control group key never changes'); END;
            CREATE TABLE panel_global_control (
              id              INTEGER PRIMARY KEY,
              percent         INTEGER NOT NULL CHECK (percent BETWEEN 0 AND 20),
              took_effect_at  TEXT NOT NULL,
              admin_id        INTEGER,
              actor_email     TEXT
            );
            ALTER TABLE panel_campaigns ADD COLUMN control_users INTEGER NOT NULL DEFAULT 0;
            """
        ),
        // What a push costs (issue 48): each delivery keeps what its claim saw (marketing
        // consent, push switch, permission: `ConsentBits`) and is read again 72 hours after it
        // went out; a campaign's holdout and global-control members, and a journey's, are read
        // at its start and 72 hours later. The index holds only the rows still to read, by
        // when they went out: a read that comes late (the panel was down) is late, never lost.
        // Running counts per campaign and group, kept by the reading's own transaction.
        (
            21,
            """
            ALTER TABLE panel_deliveries ADD COLUMN consent_seen INTEGER;
            ALTER TABLE panel_deliveries ADD COLUMN consent_sent_at TEXT;
            ALTER TABLE panel_deliveries ADD COLUMN consent_after INTEGER;
            CREATE INDEX panel_deliveries_consent_due ON panel_deliveries(consent_sent_at)
              WHERE consent_sent_at IS NOT NULL AND consent_after IS NULL;
            CREATE TABLE panel_consent_readings (
              campaign_id  INTEGER NOT NULL,
              user_id      INTEGER NOT NULL,
              grp          TEXT NOT NULL CHECK (grp IN ('holdout', 'control')),
              start_at     TEXT NOT NULL,
              seen         INTEGER NOT NULL,
              after        INTEGER,
              PRIMARY KEY (campaign_id, user_id, grp)
            ) WITHOUT ROWID;
            CREATE INDEX panel_consent_readings_due ON panel_consent_readings(start_at) WHERE after IS NULL;
            CREATE TABLE panel_consent_costs (
              campaign_id     INTEGER NOT NULL,
              grp             TEXT NOT NULL CHECK (grp IN ('recipients', 'holdout', 'control')),
              users           INTEGER NOT NULL DEFAULT 0,
              marketing_off   INTEGER NOT NULL DEFAULT 0,
              push_off        INTEGER NOT NULL DEFAULT 0,
              permission_off  INTEGER NOT NULL DEFAULT 0,
              gone            INTEGER NOT NULL DEFAULT 0,
              PRIMARY KEY (campaign_id, grp)
            ) WITHOUT ROWID;
            """
        ),
    ]

    /// Steps that SQL alone cannot say, run after the SQL of their version.
    static func afterStep(_ version: Int, in db: Database) throws {
        if version == 10 { try widenDeliveryStates(adding: "capped", after: "'unknown', 'cancelled'", in: db) }
        if version == 13 {
            try widenDeliveryStates(adding: "excluded", after: "'unknown', 'cancelled', 'capped'", in: db)
        }
    }

    /// Adds a state (`capped`, then `excluded`) to `panel_deliveries.state`'s CHECK by editing the stored schema, as
    /// SQLite documents for loosening a constraint: every stored row still satisfies it, so
    /// nothing is rewritten. Rebuilding a table of millions of deliveries would hold the
    /// backend's write lock for seconds. The schema version moves on so that every
    /// connection reads the new definition.
    static func widenDeliveryStates(adding state: String, after last: String, in db: Database) throws {
        let old = "\(last)))"
        guard
            let sql = try String.fetchOne(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'panel_deliveries'"),
            sql.contains(old)
        else { throw DatabaseError(message: "panel_deliveries' states are not as the migration before made them") }
        let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        try db.execute(sql: "PRAGMA writable_schema = ON")
        try db.execute(
            sql: "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'panel_deliveries'",
            arguments: [sql.replacingOccurrences(of: old, with: "\(last), '\(state)'))")])
        try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
        try db.execute(sql: "PRAGMA writable_schema = OFF")
    }

    static var latestVersion: Int { steps.last?.version ?? 0 }

    /// One immediate transaction: two panels starting at once cannot both migrate.
    static func migrate(_ writer: some DatabaseWriter) throws {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS panel_schema_version (version INTEGER NOT NULL)")
            let current = try PanelSchemaVersion.current(db)
            for step in steps where step.version > current {
                try db.execute(sql: step.sql)
                try afterStep(step.version, in: db)
                try PanelSchemaVersion(version: step.version).insert(db)
            }
        }
    }
}
