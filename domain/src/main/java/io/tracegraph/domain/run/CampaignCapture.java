package io.tracegraph.domain.run;

import java.util.Objects;

/**
 * A capture that a candle-graph campaign ({@code campaign/1}) plans: the campaign, the step it
 * plans and the bundle that holds it. The trace in that bundle must be of the campaign's entrypoint
 * and of that capture step.
 *
 * @param source      where the campaign manifest was found (a path, or an archive entry)
 * @param campaignId  the campaign's {@code campaign_id}
 * @param entrypoint  the campaign's {@code entrypoint}
 * @param captureStep the planned {@code capture_step}
 * @param bundle      the planned bundle path, relative to the campaign manifest's folder
 */
public record CampaignCapture(String source, String campaignId, String entrypoint, long captureStep, String bundle) {
    public CampaignCapture {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(campaignId, "campaignId");
        Objects.requireNonNull(entrypoint, "entrypoint");
        Objects.requireNonNull(bundle, "bundle");
    }
}
