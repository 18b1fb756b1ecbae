-- Locations: a book of places (landmarks, shops, ATMs) and the link from a trade to the place
-- where it happened. Coordinates are REAL degrees (WGS 84): they are not money, and REAL keeps
-- range queries simple; Folio parses them exactly before storing them. Names and cities compare
-- case-insensitively (ASCII), so "Colosseum, Rome" and "colosseum, rome" are one place.

CREATE TABLE locations (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 200 AND name = trim(name)),
  city TEXT NOT NULL COLLATE NOCASE CHECK (length(city) BETWEEN 1 AND 200 AND city = trim(city)),
  latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
  longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
  description TEXT CHECK (description IS NULL OR length(description) > 0),
  link TEXT CHECK (
    link IS NULL
    OR ((link GLOB 'http://?*' OR link GLOB 'https://?*') AND instr(link, ' ') = 0)),
  created_at TEXT NOT NULL CHECK (
    created_at GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  updated_at TEXT NOT NULL CHECK (
    updated_at GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  UNIQUE (name, city)
) STRICT;

-- `folio locations near` narrows to a bounding box on this index before measuring distances.
CREATE INDEX locations_by_position ON locations (latitude, longitude);

-- The image names of a location, in the order they are shown (position 1, 2, ...).
CREATE TABLE location_images (
  location_id INTEGER NOT NULL REFERENCES locations (id) ON DELETE CASCADE,
  position INTEGER NOT NULL CHECK (position >= 1),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200 AND name = trim(name)),
  PRIMARY KEY (location_id, position),
  UNIQUE (location_id, name)
) STRICT, WITHOUT ROWID;

-- Images go with their location even when foreign keys are off (the sqlite3 shell's default).
CREATE TRIGGER location_images_follow_location AFTER DELETE ON locations
BEGIN
  DELETE FROM location_images WHERE location_id = OLD.id;
END;

-- Where a trade happened (optional). A location with trades cannot be deleted while they point
-- at it; `folio locations delete --force` sets their location_id to NULL first.
ALTER TABLE trades ADD COLUMN location_id INTEGER REFERENCES locations (id);

CREATE INDEX trades_by_location ON trades (location_id) WHERE location_id IS NOT NULL;
