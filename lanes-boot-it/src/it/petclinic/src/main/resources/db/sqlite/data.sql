INSERT OR IGNORE INTO vets VALUES (1, 'James', 'Carter');
INSERT OR IGNORE INTO vets VALUES (2, 'Helen', 'Leary');
INSERT OR IGNORE INTO vets VALUES (3, 'Linda', 'Douglas');
INSERT OR IGNORE INTO vets VALUES (4, 'Rafael', 'Ortega');
INSERT OR IGNORE INTO vets VALUES (5, 'Henry', 'Stevens');
INSERT OR IGNORE INTO vets VALUES (6, 'Sharon', 'Jenkins');

INSERT OR IGNORE INTO specialties VALUES (1, 'radiology');
INSERT OR IGNORE INTO specialties VALUES (2, 'surgery');
INSERT OR IGNORE INTO specialties VALUES (3, 'dentistry');

INSERT OR IGNORE INTO vet_specialties VALUES (2, 1);
INSERT OR IGNORE INTO vet_specialties VALUES (3, 2);
INSERT OR IGNORE INTO vet_specialties VALUES (3, 3);
INSERT OR IGNORE INTO vet_specialties VALUES (4, 2);
INSERT OR IGNORE INTO vet_specialties VALUES (5, 1);

INSERT OR IGNORE INTO types VALUES (1, 'cat');
INSERT OR IGNORE INTO types VALUES (2, 'dog');
INSERT OR IGNORE INTO types VALUES (3, 'lizard');
INSERT OR IGNORE INTO types VALUES (4, 'snake');
INSERT OR IGNORE INTO types VALUES (5, 'bird');
INSERT OR IGNORE INTO types VALUES (6, 'hamster');

INSERT OR IGNORE INTO owners VALUES (1, 'George', 'Franklin', '110 W. Liberty St.', 'Madison', '6085551023');
INSERT OR IGNORE INTO owners VALUES (2, 'Betty', 'Davis', '638 Cardinal Ave.', 'Sun Prairie', '6085551749');
INSERT OR IGNORE INTO owners VALUES (3, 'Eduardo', 'Rodriquez', '2693 Commerce St.', 'McFarland', '6085558763');
INSERT OR IGNORE INTO owners VALUES (4, 'Harold', 'Davis', '563 Friendly St.', 'Windsor', '6085553198');
INSERT OR IGNORE INTO owners VALUES (5, 'Peter', 'McTavish', '2387 S. Fair Way', 'Madison', '6085552765');
INSERT OR IGNORE INTO owners VALUES (6, 'Jean', 'Coleman', '105 N. Lake St.', 'Monona', '6085552654');

INSERT OR IGNORE INTO pets VALUES (1, 'Leo', '2010-09-07', 1, 1);
INSERT OR IGNORE INTO pets VALUES (2, 'Basil', '2012-08-06', 6, 2);
INSERT OR IGNORE INTO pets VALUES (3, 'Rosy', '2011-04-17', 2, 3);
INSERT OR IGNORE INTO pets VALUES (4, 'Jewel', '2010-03-07', 2, 3);
INSERT OR IGNORE INTO pets VALUES (5, 'Iggy', '2010-11-30', 3, 4);
INSERT OR IGNORE INTO pets VALUES (6, 'George', '2010-01-20', 4, 5);
INSERT OR IGNORE INTO pets VALUES (7, 'Samantha', '2012-09-04', 1, 6);
INSERT OR IGNORE INTO pets VALUES (8, 'Max', '2012-09-04', 1, 6);

INSERT OR IGNORE INTO visits VALUES (1, 7, '2013-01-01', 'rabies shot');
INSERT OR IGNORE INTO visits VALUES (2, 8, '2013-01-02', 'rabies shot');
INSERT OR IGNORE INTO visits VALUES (3, 8, '2013-01-03', 'neutered');
INSERT OR IGNORE INTO visits VALUES (4, 7, '2013-01-04', 'spayed');
