-- The segments a campaign is sent to (docs/AUDIENCE.md, "Campaigns to lists and segments"). Set at
-- creation and while the campaign is a draft; at its start the subscribers a segment's filter matches
-- (and who hold a live subscription) become its recipients, and an unsubscribe from one of its
-- messages unsubscribes from every list the person is on.
--
-- A segment that a campaign not yet completed or cancelled targets cannot be deleted
-- (audience.segment.Segments refuses it). A finished campaign's rows go with the segment.
CREATE TABLE campaign_segment (
    campaign_id BIGINT NOT NULL,
    segment_id  BIGINT NOT NULL,
    PRIMARY KEY (campaign_id, segment_id),
    -- which campaigns target a segment (a segment's delete is refused while any open one does)
    KEY ix_campaign_segment_segment (segment_id),
    CONSTRAINT fk_campaign_segment_campaign FOREIGN KEY (campaign_id) REFERENCES campaign (id) ON DELETE CASCADE,
    CONSTRAINT fk_campaign_segment_segment FOREIGN KEY (segment_id) REFERENCES segment (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
