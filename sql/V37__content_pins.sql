-- What a campaign sends is pinned: the stored template version it was created with (and each A/B
-- variant with a template of its own, that variant's), so every run and every worker renders the
-- same text and nothing a later save does reaches it. NULL: a campaign created before templates
-- were stored; `mailrun db migrate` pins it to its template's text on disk then, and a run pins one
-- still unpinned to its template's latest stored version (docs/CONTENT.md, "Upgrading").
ALTER TABLE campaign ADD COLUMN template_version INT NULL;
ALTER TABLE campaign_variant ADD COLUMN template_version INT NULL;

-- Every pin and every move of one, with who made it and when: a draft's content changed, a paused
-- campaign moved to another version. The export names the version each recipient was sent from
-- these rows (the pin in force when the message was sent; a pin moves only while no run holds the
-- campaign, so no message straddles a move), and a version any campaign pinned cannot be deleted.
CREATE TABLE campaign_content_change (
    id           BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    campaign_id  BIGINT       NOT NULL,
    variant      VARCHAR(20)  CHARACTER SET ascii COLLATE ascii_bin NULL,
    template     VARCHAR(100) NOT NULL,
    from_version INT          NULL,
    to_version   INT          NOT NULL,
    changed_by   VARCHAR(200) NOT NULL,
    changed_at   DATETIME(3)  NOT NULL,
    KEY campaign_content_change_campaign (campaign_id, changed_at),
    KEY campaign_content_change_version (template, to_version),
    CONSTRAINT campaign_content_change_campaign FOREIGN KEY (campaign_id) REFERENCES campaign (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
