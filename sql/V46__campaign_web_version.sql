-- Whether a campaign's web version pages show the recipient's own fields (docs/CONTENT.md, "Web
-- version"): 'personal' (the address, name, imported columns and unsubscribe link, as the message had
-- them) or 'anonymous' (the campaign's fields and the template's defaults only). NULL: the campaign
-- follows webversion.personal, read when a page is served; every campaign created before this column
-- does.
ALTER TABLE campaign
    ADD COLUMN web_version VARCHAR(9) CHARACTER SET ascii COLLATE ascii_bin NULL,
    ADD CONSTRAINT ck_campaign_web_version CHECK (web_version IN ('personal', 'anonymous'));
