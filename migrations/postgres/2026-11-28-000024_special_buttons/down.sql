DROP TABLE special_contributions;
DROP TABLE special_hands;
DROP TABLE special_buttons;
ALTER TABLE games DROP COLUMN macaca_cap_bb;
ALTER TABLE games DROP COLUMN macaca_bb;
ALTER TABLE games DROP COLUMN macaca;
ALTER TABLE games DROP COLUMN cucurucho_bb;
ALTER TABLE games DROP COLUMN cucurucho;
DELETE FROM sequences WHERE name IN ('special_button', 'special_hand', 'special_contribution');
