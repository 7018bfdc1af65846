-- The lists a campaign is sent to (docs/AUDIENCE.md, "Campaigns to lists"). Set at creation and while
-- the campaign is a draft; at its start the subscribers of these lists become its recipients, and an
-- unsubscribe from one of its messages unsubscribes from these lists rather than from everything.
--
-- A list that a campaign not yet completed or cancelled targets cannot be deleted (audience.Lists
-- refuses it): the campaign would lose its audience without anyone asking. A finished campaign's rows
-- go with the list; an unsubscribe from one of its messages then suppresses the address everywhere.
CREATE TABLE campaign_list (
    campaign_id BIGINT NOT NULL,
    list_id     BIGINT NOT NULL,
    PRIMARY KEY (campaign_id, list_id),
    -- which campaigns target a list (a list's delete is refused while any does)
    KEY ix_campaign_list_list (list_id),
    CONSTRAINT fk_campaign_list_campaign FOREIGN KEY (campaign_id) REFERENCES campaign (id) ON DELETE CASCADE,
    CONSTRAINT fk_campaign_list_list FOREIGN KEY (list_id) REFERENCES subscriber_list (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
