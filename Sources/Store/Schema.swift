import GRDB

/// The database schema, as an ordered list of migrations.
///
/// Rule: a migration that has shipped is never edited; change the schema by
/// registering a new one after it (see docs/store.md).
enum Schema {
    /// Marks a file as ours in the SQLite header ('vTou'), so foreign databases are refused.
    static let applicationID: Int32 = 0x7654_6F75

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("v1") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")

            try db.execute(sql: """
                CREATE TABLE pin (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
                    longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
                    name TEXT,
                    createdAt DATETIME NOT NULL,
                    albumState TEXT NOT NULL DEFAULT 'empty'
                        CHECK (albumState IN ('downloading', 'ready', 'empty', 'failed')),
                    albumError TEXT,
                    albumPage INTEGER,
                    albumPageCount INTEGER,
                    albumSource TEXT
                )
                """)

            try db.execute(sql: """
                CREATE TABLE photo (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    pinId INTEGER NOT NULL REFERENCES pin(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    source TEXT NOT NULL,
                    sourceId TEXT NOT NULL,
                    title TEXT,
                    author TEXT,
                    dateTaken DATETIME,
                    url TEXT NOT NULL,
                    pageURL TEXT,
                    license TEXT,
                    width INTEGER,
                    height INTEGER,
                    state TEXT NOT NULL DEFAULT 'pending'
                        CHECK (state IN ('pending', 'stored', 'failed')),
                    error TEXT,
                    UNIQUE (pinId, source, sourceId)
                )
                """)
            // The album grid reads photos in order.
            try db.execute(sql: "CREATE INDEX photo_on_pinId_position ON photo(pinId, position)")
            // Covers the per-pin counts in pins(), so the map never scans photo rows.
            try db.execute(sql: "CREATE INDEX photo_on_pinId_state ON photo(pinId, state)")

            // Image bytes live apart so listing photos never reads blobs.
            try db.execute(sql: """
                CREATE TABLE photoImage (
                    photoId INTEGER PRIMARY KEY REFERENCES photo(id) ON DELETE CASCADE,
                    bytes BLOB NOT NULL
                )
                """)

            try db.execute(sql: """
                CREATE TABLE setting (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                )
                """)

            try db.execute(sql: """
                CREATE TABLE mapView (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    centerLatitude REAL NOT NULL CHECK (centerLatitude BETWEEN -90 AND 90),
                    centerLongitude REAL NOT NULL CHECK (centerLongitude BETWEEN -180 AND 180),
                    zoom INTEGER NOT NULL CHECK (zoom >= 0),
                    cursorLatitude REAL NOT NULL CHECK (cursorLatitude BETWEEN -90 AND 90),
                    cursorLongitude REAL NOT NULL CHECK (cursorLongitude BETWEEN -180 AND 180)
                )
                """)
        }

        migrator.registerMigration("v2") { db in
            // The detail view shows a bigger image than the grid cell.
            try db.execute(sql: "ALTER TABLE photo ADD COLUMN largeURL TEXT")

            // 'stored' means the image is there: pins() counts states from an index, never touching blobs.
            try db.execute(sql: """
                UPDATE photo SET state = 'pending'
                WHERE state = 'stored' AND NOT EXISTS (SELECT 1 FROM photoImage WHERE photoId = photo.id)
                """)
            try db.execute(sql: """
                CREATE TRIGGER photo_inserted_stored BEFORE INSERT ON photo WHEN NEW.state = 'stored'
                BEGIN SELECT RAISE(ABORT, 'a photo is stored only together with its image'); END
                """)
            try db.execute(sql: """
                CREATE TRIGGER photo_stored_without_image BEFORE UPDATE OF state ON photo
                WHEN NEW.state = 'stored' AND NOT EXISTS (SELECT 1 FROM photoImage WHERE photoId = NEW.id)
                BEGIN SELECT RAISE(ABORT, 'a photo is stored only together with its image'); END
                """)
            try db.execute(sql: """
                CREATE TRIGGER photoImage_deleted AFTER DELETE ON photoImage
                BEGIN UPDATE photo SET state = 'pending' WHERE id = OLD.photoId AND state = 'stored'; END
                """)

            // Start-up looks for interrupted albums; a partial index keeps that off a 10,000-pin scan.
            try db.execute(sql: "CREATE INDEX pin_downloading ON pin(id) WHERE albumState = 'downloading'")
        }

        migrator.registerMigration("v3") { db in
            // Who is fetching an album: one process at a time (a second window, `drop --wait`), taken
            // over once its heartbeat is older than AlbumLease.expiry (a crashed holder).
            try db.execute(sql: """
                CREATE TABLE albumLease (
                    pinId INTEGER PRIMARY KEY REFERENCES pin(id) ON DELETE CASCADE,
                    holder TEXT NOT NULL,
                    heartbeat REAL NOT NULL
                )
                """)
        }

        migrator.registerMigration("v4") { db in
            // The album's generation: advanced by each new collection and each move, in the transaction
            // that clears the photos; work for an older one is refused where it would be written. A pin
            // is stored with its first collection begun, generation 1 (the album machine's `.start`).
            try db.execute(sql: "ALTER TABLE pin ADD COLUMN albumGeneration INTEGER NOT NULL DEFAULT 1")
        }

        migrator.registerMigration("v5") { db in
            // The photo view's large images, beside the album thumbnails and within the budget
            // `large_cache_mb`. The small columns come before the blob, so reading them never walks
            // the blob's overflow pages; the photo's deletion (its pin's, a new collection's) takes its row.
            try db.execute(sql: """
                CREATE TABLE photoLarge (
                    photoId INTEGER PRIMARY KEY REFERENCES photo(id) ON DELETE CASCADE,
                    width INTEGER NOT NULL CHECK (width > 0),
                    height INTEGER NOT NULL CHECK (height > 0),
                    byteCount INTEGER NOT NULL CHECK (byteCount > 0),
                    viewedAt REAL NOT NULL,
                    bytes BLOB NOT NULL CHECK (length(bytes) = byteCount)
                )
                """)
            // Eviction order (least recently viewed first) and the total, both from the index alone.
            try db.execute(sql: "CREATE INDEX photoLarge_on_viewedAt ON photoLarge(viewedAt, byteCount)")
        }

        migrator.registerMigration("v6") { db in
            // The album's filter (Model.AlbumFilter), NULL or 'interesting' for what it leaves out; the
            // checks refuse what no filter can be, even from raw SQL. 100 is AlbumFilter.maxTextLength, in
            // code points as both count it (FilterSchemaTests); the calendar's checks (2023-02-30) are the model's.
            try db.execute(sql: """
                ALTER TABLE pin ADD COLUMN filterText TEXT
                    CHECK (filterText IS NULL OR (length(filterText) BETWEEN 1 AND 100
                                                  AND trim(filterText) = filterText))
                """)
            try db.execute(sql: """
                ALTER TABLE pin ADD COLUMN filterTags TEXT
                    CHECK (filterTags IS NULL OR (filterTags <> '' AND filterTags NOT GLOB ',*'
                                                  AND filterTags NOT GLOB '*,' AND instr(filterTags, ',,') = 0))
                """)
            for side in ["filterFrom", "filterTo"] {
                try db.execute(sql: """
                    ALTER TABLE pin ADD COLUMN \(side) TEXT
                        CHECK (\(side) IS NULL
                               OR ((\(side) GLOB '[0-9][0-9][0-9][0-9]' OR \(side) GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]'
                                    OR \(side) GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]')
                                   AND (length(\(side)) = 4 OR CAST(substr(\(side), 6, 2) AS INTEGER) BETWEEN 1 AND 12)
                                   AND (length(\(side)) < 10 OR CAST(substr(\(side), 9, 2) AS INTEGER) BETWEEN 1 AND 31)))
                    """)
            }
            // `relevant` orders by the text, so it needs one.
            try db.execute(sql: """
                ALTER TABLE pin ADD COLUMN filterSort TEXT NOT NULL DEFAULT 'interesting'
                    CHECK (filterSort IN ('interesting', 'recent', 'relevant')
                           AND (filterSort <> 'relevant' OR filterText IS NOT NULL))
                """)
        }

        migrator.registerMigration("v7") { db in
            // Each host's request budget (Model.RequestBudget), shared by every window and command:
            // the tokens left and when they were counted (seconds on the wall clock).
            try db.execute(sql: """
                CREATE TABLE requestBudget (
                    host TEXT PRIMARY KEY,
                    tokens REAL NOT NULL,
                    updatedAt REAL NOT NULL
                )
                """)
        }

        migrator.registerMigration("v8") { db in
            // The name the user gave the pin (Model.PinName.checked), shown instead of the nearest
            // place's; NULL for none. The check is the rule's backstop: no empty name, no C0 control.
            try db.execute(sql: """
                ALTER TABLE pin ADD COLUMN ownName TEXT
                    CHECK (ownName IS NULL OR (length(ownName) BETWEEN 1 AND 1000
                        AND ownName NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || ']*'))
                """)
        }

        // Migrations of later versions go here, after "v8", each with a new name.

        return migrator
    }

    /// Tables whose integrity is checked at open: small, and what the map screen needs first.
    static let tablesCheckedAtOpen = ["pin", "mapView", "setting"]
}
