INSERT INTO vets VALUES (default, 'James', 'Carter');
INSERT INTO vets VALUES (default, 'Helen', 'Leary');
INSERT INTO specialties VALUES (default, 'radiology');
INSERT INTO vet_specialties VALUES (2, 1);
INSERT INTO types VALUES (default, 'cat');
INSERT INTO owners VALUES (default, 'George', 'Franklin', '110 W. Liberty St.', 'Madison', '6085551023');
