package dev.mailrun.http.endpoint;

import dev.mailrun.campaign.audience.Erasure;
import dev.mailrun.campaign.audience.ErasureRequests;
import dev.mailrun.campaign.audience.PersonalData;
import dev.mailrun.campaign.audience.Preferences;
import dev.mailrun.campaign.unsubscribe.PreferenceTokens;
import java.net.URI;

/**
 * What the preference centre's endpoint calls (docs/PREFERENCES.md): its tokens, the person's lists,
 * their data, the erasure's request by mail and the erasure; {@code base} the public URL its mailed
 * links are made on.
 */
public record PreferenceCentre(PreferenceTokens tokens, Preferences preferences, PersonalData data, ErasureRequests requests,
                               Erasure erasure, URI base) {}
