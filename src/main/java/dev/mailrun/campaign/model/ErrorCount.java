package dev.mailrun.campaign.model;

/** How many recipients of a campaign share one last error (failed or waiting for a retry). */
public record ErrorCount(String status, int code, String error, long count) {}
