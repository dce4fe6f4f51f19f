CREATE TABLE IF NOT EXISTS vets (
  id         INTEGER PRIMARY KEY,
  first_name TEXT,
  last_name  TEXT
);
CREATE INDEX IF NOT EXISTS vets_last_name ON vets (last_name);

CREATE TABLE IF NOT EXISTS specialties (
  id   INTEGER PRIMARY KEY,
  name TEXT
);
CREATE INDEX IF NOT EXISTS specialties_name ON specialties (name);

CREATE TABLE IF NOT EXISTS vet_specialties (
  vet_id       INTEGER NOT NULL REFERENCES vets (id),
  specialty_id INTEGER NOT NULL REFERENCES specialties (id),
  PRIMARY KEY (vet_id, specialty_id)
);

CREATE TABLE IF NOT EXISTS types (
  id   INTEGER PRIMARY KEY,
  name TEXT
);
CREATE INDEX IF NOT EXISTS types_name ON types (name);

CREATE TABLE IF NOT EXISTS owners (
  id         INTEGER PRIMARY KEY,
  first_name TEXT,
  last_name  TEXT,
  address    TEXT,
  city       TEXT,
  telephone  TEXT
);
CREATE INDEX IF NOT EXISTS owners_last_name ON owners (last_name);

CREATE TABLE IF NOT EXISTS pets (
  id         INTEGER PRIMARY KEY,
  name       TEXT,
  birth_date DATE,
  type_id    INTEGER NOT NULL REFERENCES types (id),
  owner_id   INTEGER REFERENCES owners (id)
);
CREATE INDEX IF NOT EXISTS pets_name ON pets (name);

CREATE TABLE IF NOT EXISTS visits (
  id          INTEGER PRIMARY KEY,
  pet_id      INTEGER REFERENCES pets (id),
  visit_date  DATE,
  description TEXT
);
CREATE INDEX IF NOT EXISTS visits_pet_id ON visits (pet_id);
