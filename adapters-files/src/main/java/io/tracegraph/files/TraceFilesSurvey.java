package io.tracegraph.files;

import io.tracegraph.domain.run.CampaignCapture;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a first pass over an archive file found, so that the walk proper knows, before it hands on
 * anything, which folders are bundles, which entries belong to them, where each bundle's entries end
 * and which campaigns plan them (a streamed archive may give {@code bundle.json} after its trace, a
 * campaign after its bundles).
 *
 * <p>Every archive level of the file (the file itself, and each archive nested in it) is known by a
 * key: {@code ""} for the file, then the ordinal of the nested archive's entry in its parent,
 * {@code "/3"}, {@code "/3/0"}. Both passes read the same bytes in the same order, so the keys and
 * ordinals agree. Kept per level: each folder's last entry (at most {@link #MAX_FOLDERS} folders in
 * all, {@link #MAX_DEPTH} deep), every {@code bundle.json} and campaign manifest (at most
 * {@link #MAX_MANIFEST_BYTES} of them in all).
 */
final class TraceFilesSurvey {
    /** Folders whose last entry is remembered; past them a bundle is decided when its archive ends. */
    static final int MAX_FOLDERS = 100_000;
    /** Folders this deep or deeper inside an archive are not recognised as bundles. */
    static final int MAX_DEPTH = 32;
    /** Bytes of {@code bundle.json} and campaign manifests held for one archive file. */
    static final long MAX_MANIFEST_BYTES = 32L << 20;

    private final Map<String, Level> levels = new HashMap<>();
    private int folders;
    private long manifestBytes;
    private boolean found;

    /** The level of {@code key}, recorded into by the first pass. */
    Level level(String key) {
        return levels.computeIfAbsent(key, k -> new Level());
    }

    /** Whether any bundle or campaign was found at all (if not, the walk proper is as without a survey). */
    boolean found() {
        return found;
    }

    /**
     * The second pass's view of the level of {@code key}, whose entries are labelled
     * {@code label!name}; {@code null} when the level holds no bundle and no campaign.
     */
    Plan plan(String key, String label) {
        Level level = levels.get(key);
        if (level == null || (level.manifests.isEmpty() && level.campaigns.isEmpty())) {
            return null;
        }
        return level.plan(label);
    }

    /** A {@code bundle.json} as found: where, and its bytes or why they were not kept. */
    record FoundManifest(int ordinal, byte[] bytes, String problem) {
    }

    /** A campaign manifest as found. */
    record FoundCampaign(String folder, int ordinal, String entryName, TraceBundles.Read<TraceBundles.Campaign> campaign) {
    }

    /** One archive level, as the first pass records it. */
    final class Level {
        private final Map<String, Integer> last = new HashMap<>();
        private boolean overflow;
        private final Map<String, FoundManifest> manifests = new LinkedHashMap<>();
        private final List<FoundCampaign> campaigns = new ArrayList<>();

        /** An entry (of any type) at {@code ordinal}, its normalized path or null. */
        void entry(String path, int ordinal) {
            if (path == null) {
                return;
            }
            remember("", ordinal);
            int depth = 0;
            for (int slash = path.indexOf('/'); slash >= 0 && depth < MAX_DEPTH; slash = path.indexOf('/', slash + 1)) {
                remember(path.substring(0, slash), ordinal);
                depth++;
            }
        }

        /** Whether {@code bytes} more manifest bytes may be held. */
        boolean mayHold(long bytes) {
            return manifestBytes + bytes <= MAX_MANIFEST_BYTES;
        }

        void manifest(String folder, int ordinal, byte[] bytes, String problem) {
            if (depth(folder) >= MAX_DEPTH) {
                return;
            }
            found = true;
            if (bytes != null) {
                manifestBytes += bytes.length;
            }
            manifests.putIfAbsent(folder, new FoundManifest(ordinal, bytes, problem));
        }

        void campaign(String folder, int ordinal, String entryName, TraceBundles.Read<TraceBundles.Campaign> campaign,
                long bytes) {
            found = true;
            manifestBytes += bytes;
            campaigns.add(new FoundCampaign(folder, ordinal, entryName, campaign));
        }

        private void remember(String folder, int ordinal) {
            if (overflow) {
                return;
            }
            if (last.put(folder, ordinal) == null && ++folders > MAX_FOLDERS) {
                overflow = true;
                last.clear();
            }
        }

        private Plan plan(String label) {
            List<String> folders = new ArrayList<>(manifests.keySet());
            folders.sort(Comparator.comparingInt(String::length));
            Map<String, BundlePlan> roots = new LinkedHashMap<>();
            Plan plan = new Plan(label, roots);
            for (String folder : folders) {
                if (plan.rootOf(folder.isEmpty() ? TraceBundles.MANIFEST : folder + "/" + TraceBundles.MANIFEST) != null) {
                    continue; // a bundle.json inside another bundle is one of its files
                }
                FoundManifest m = manifests.get(folder);
                TraceBundles.Read<TraceBundles.Manifest> manifest = m.bytes() == null ? TraceBundles.Read.refused(m.problem())
                        : TraceBundles.manifest(m.bytes());
                Integer end = overflow ? null : last.get(folder);
                roots.put(folder, new BundlePlan(folder, manifest, end == null ? -1 : end));
            }
            for (FoundCampaign c : campaigns) {
                String manifestPath = TraceBundles.join(c.folder(), TraceBundles.fileName(TraceBundles.normalized(c.entryName())));
                if (plan.rootOf(manifestPath) != null) {
                    continue; // a campaign manifest inside a bundle is one of its files
                }
                plan.campaignAt(c, label);
            }
            return plan;
        }

        private int depth(String folder) {
            return folder.isEmpty() ? 0 : (int) folder.chars().filter(ch -> ch == '/').count() + 1;
        }
    }

    /** A bundle of a level: its root folder, its manifest, its last entry (-1: unknown), its campaign. */
    static final class BundlePlan {
        final String root;
        final TraceBundles.Read<TraceBundles.Manifest> manifest;
        final int last;
        CampaignCapture campaign;

        BundlePlan(String root, TraceBundles.Read<TraceBundles.Manifest> manifest, int last) {
            this.root = root;
            this.manifest = manifest;
            this.last = last;
        }
    }

    /** Something to report at a campaign manifest's entry. */
    record Note(String name, String reason) {
    }

    /** The bundles and campaigns of one archive level. */
    static final class Plan {
        private final String label;
        private final Map<String, BundlePlan> roots;
        private final Map<Integer, List<Note>> campaignNotes = new HashMap<>();
        private final Set<Integer> campaignOrdinals = new HashSet<>();

        Plan(String label, Map<String, BundlePlan> roots) {
            this.label = label;
            this.roots = roots;
        }

        /** The root of the outermost bundle holding the normalized {@code path}, or null. */
        String rootOf(String path) {
            if (roots.containsKey("")) {
                return "";
            }
            int depth = 0;
            for (int slash = path.indexOf('/'); slash >= 0 && depth < MAX_DEPTH; slash = path.indexOf('/', slash + 1)) {
                String folder = path.substring(0, slash);
                if (roots.containsKey(folder)) {
                    return folder;
                }
                depth++;
            }
            return null;
        }

        BundlePlan bundle(String root) {
            return roots.get(root);
        }

        boolean isCampaign(int ordinal) {
            return campaignOrdinals.contains(ordinal);
        }

        List<Note> notes(int ordinal) {
            return campaignNotes.getOrDefault(ordinal, List.of());
        }

        /** The label of a path in this level. */
        String label(String path) {
            return path.isEmpty() ? label : label + "!" + path;
        }

        private void campaignAt(FoundCampaign c, String archiveLabel) {
            campaignOrdinals.add(c.ordinal());
            List<Note> notes = campaignNotes.computeIfAbsent(c.ordinal(), o -> new ArrayList<>());
            String source = archiveLabel + "!" + TraceFilesWalk.clean(c.entryName(), 1024);
            if (!c.campaign().ok()) {
                notes.add(new Note(source, c.campaign().problem()));
                return;
            }
            TraceBundles.Campaign campaign = c.campaign().value();
            for (TraceBundles.Planned p : campaign.planned()) {
                String root = TraceBundles.join(c.folder(), p.bundle());
                BundlePlan bundle = roots.get(root);
                if (bundle == null) {
                    notes.add(new Note(label(root), "planned by campaign `" + campaign.campaignId() + "` (" + source
                            + ") for capture_step " + p.captureStep() + ", but there is no bundle (no bundle.json)"));
                } else if (bundle.campaign == null) {
                    bundle.campaign = new CampaignCapture(source, campaign.campaignId(), campaign.entrypoint(),
                            p.captureStep(), p.bundle());
                }
            }
        }
    }
}
