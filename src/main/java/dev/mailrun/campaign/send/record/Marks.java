package dev.mailrun.campaign.send.record;

import java.util.List;

/** The recipients one flush should mark in flight, and where a batch's marks end once it commits. */
record Marks(List<Long> ids, int upTo) {}
