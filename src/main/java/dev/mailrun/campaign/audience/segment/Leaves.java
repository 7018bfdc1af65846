package dev.mailrun.campaign.audience.segment;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mailrun.campaign.audience.Attributes;
import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.model.SubscriberStatus;
import dev.mailrun.campaign.model.SubscriptionStatus;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The conditions of a filter that are not and/or/not, read and checked for {@link FilterParser}. */
final class Leaves {

    static final int MAX_TEXT = 500;
    static final int MAX_IN = 1000;
    static final int MAX_DAYS = 3650;
    /** The digits DECIMAL(65,30) holds, where the SQL compares numbers. */
    static final int MAX_INTEGER_DIGITS = 35;
    static final int MAX_FRACTION_DIGITS = 30;

    private static final List<String> ATTR_TESTS = List.of("eq", "ne", "contains", "in", "range", "exists");
    private static final Map<String, Set<String>> ENGAGEMENT = Map.of("open", Set.of("open"), "click", Set.of("click"),
            "any", Set.of("open", "click"));
    private static final Map<String, Set<String>> BOUNCES = Map.of("hard", Set.of("hard"), "soft", Set.of("soft"),
            "any", Set.of("hard", "soft"));

    private final FilterParser.Problems problems;
    private final Map<String, String> lists = new LinkedHashMap<>();

    Leaves(FilterParser.Problems problems) {
        this.problems = problems;
    }

    /** The lists the filter names, as written, by the path of each. */
    Map<String, String> lists() {
        return lists;
    }

    SegmentFilter leaf(JsonNode node, String path, String kind) {
        return switch (kind) {
            case "attr" -> attr(node, path);
            case "list" -> list(node, path);
            case "status" -> {
                problems.onlyKeys(node, path, Set.of("status"));
                Optional<String> w = word(node.get("status"), path + ".status", "enabled or blocklisted");
                Optional<SubscriberStatus> s = w.flatMap(SubscriberStatus::parse);
                if (w.isPresent() && s.isEmpty()) {
                    problems.add(path + ".status", "must be enabled or blocklisted");
                }
                yield s.map(SegmentFilter.Status::new).orElse(null);
            }
            case "engaged" -> engaged(node.get("engaged"), path + ".engaged");
            case "bounced" -> bounced(node.get("bounced"), path + ".bounced");
            case "complained" -> {
                problems.onlyKeys(node, path, Set.of("complained"));
                JsonNode body = node.get("complained");
                String at = path + ".complained";
                if (!body.isObject()) {
                    problems.add(at, "must be an object: {} or {\"days\": N}");
                    yield null;
                }
                problems.onlyKeys(body, at, Set.of("days"));
                Optional<Integer> days = days(body, at);
                yield new SegmentFilter.Bounced(Set.of("complaint"), days);
            }
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private SegmentFilter attr(JsonNode node, String path) {
        Set<String> allowed = new LinkedHashSet<>(List.of("attr"));
        allowed.addAll(ATTR_TESTS);
        problems.onlyKeys(node, path, allowed);
        String name = null;
        JsonNode n = node.get("attr");
        if (!n.isTextual()) {
            problems.add(path + ".attr", "must be an attribute's name (text)");
        } else {
            name = n.textValue();
            Attributes.nameProblem(name).ifPresent(p -> problems.add(path + ".attr", p));
        }
        List<String> tests = ATTR_TESTS.stream().filter(node::has).toList();
        if (tests.isEmpty()) {
            problems.add(path, "needs one of " + String.join(", ", ATTR_TESTS));
            return null;
        }
        if (tests.size() > 1) {
            problems.add(path + "." + tests.get(1), "one test per attribute: this one has '" + tests.get(0) + "' already");
            return null;
        }
        String test = tests.get(0);
        String at = path + "." + test;
        JsonNode v = node.get(test);
        SegmentFilter.AttrTest read = switch (test) {
            case "eq", "ne" -> scalar(v, at).map(SegmentFilter.Equals::new).orElse(null);
            case "contains" -> text(v, at).map(SegmentFilter.Contains::new).orElse(null);
            case "in" -> in(v, at);
            case "range" -> range(v, at);
            default -> {
                if (!v.isBoolean()) {
                    problems.add(at, "must be true or false");
                    yield null;
                }
                yield new SegmentFilter.Exists(v.booleanValue());
            }
        };
        if (read == null || name == null) {
            return null;
        }
        SegmentFilter.Attr attr = new SegmentFilter.Attr(name, read);
        return test.equals("ne") ? new SegmentFilter.Not(attr) : attr;
    }

    private SegmentFilter.AttrTest in(JsonNode v, String at) {
        if (!v.isArray() || v.isEmpty()) {
            problems.add(at, "must be a list of one or more values");
            return null;
        }
        if (v.size() > MAX_IN) {
            problems.add(at, "has " + v.size() + " values, more than the " + MAX_IN + " allowed");
            return null;
        }
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            scalar(v.get(i), at + "[" + i + "]").ifPresent(values::add);
        }
        return values.size() == v.size() ? new SegmentFilter.In(values) : null;
    }

    private SegmentFilter.AttrTest range(JsonNode v, String at) {
        if (!v.isObject() || v.isEmpty()) {
            problems.add(at, "must be an object with one or more of gt, gte, lt, lte");
            return null;
        }
        problems.onlyKeys(v, at, new LinkedHashSet<>(List.of("gt", "gte", "lt", "lte")));
        if (v.has("gt") && v.has("gte") || v.has("lt") && v.has("lte")) {
            problems.add(at, "takes one lower bound (gt or gte) and one upper bound (lt or lte)");
            return null;
        }
        Optional<BigDecimal> gt = bound(v, at, "gt");
        Optional<BigDecimal> gte = bound(v, at, "gte");
        Optional<BigDecimal> lt = bound(v, at, "lt");
        Optional<BigDecimal> lte = bound(v, at, "lte");
        if (gt.isEmpty() && gte.isEmpty() && lt.isEmpty() && lte.isEmpty()) {
            return null;
        }
        return new SegmentFilter.Range(gt, gte, lt, lte);
    }

    private Optional<BigDecimal> bound(JsonNode range, String at, String key) {
        if (!range.has(key)) {
            return Optional.empty();
        }
        JsonNode v = range.get(key);
        if (!v.isNumber()) {
            problems.add(at + "." + key, "must be a number");
            return Optional.empty();
        }
        return number(v, at + "." + key);
    }

    private SegmentFilter list(JsonNode node, String path) {
        problems.onlyKeys(node, path, new LinkedHashSet<>(List.of("list", "status")));
        Optional<String> name = text(node.get("list"), path + ".list");
        if (name.isPresent() && name.get().length() > Lists.MAX_NAME) {
            problems.add(path + ".list", "is longer than " + Lists.MAX_NAME + " characters");
            return null;
        }
        Set<SubscriptionStatus> statuses = EnumSet.of(SubscriptionStatus.UNCONFIRMED, SubscriptionStatus.CONFIRMED);
        if (node.has("status")) {
            String at = path + ".status";
            Optional<String> s = word(node.get("status"), at, "unconfirmed, confirmed, unsubscribed or any");
            if (s.isEmpty()) {
                return null;
            }
            if (s.get().equals("any")) {
                statuses = EnumSet.allOf(SubscriptionStatus.class);
            } else {
                Optional<SubscriptionStatus> one = SubscriptionStatus.parse(s.get());
                if (one.isEmpty()) {
                    problems.add(at, "must be unconfirmed, confirmed, unsubscribed or any");
                    return null;
                }
                statuses = EnumSet.of(one.get());
            }
        }
        if (name.isEmpty()) {
            return null;
        }
        lists.put(path + ".list", name.get().strip());
        return new SegmentFilter.OnList(name.get().strip(), statuses);
    }

    private SegmentFilter engaged(JsonNode body, String at) {
        if (!body.isObject()) {
            problems.add(at, "must be an object: {\"kind\": open|click|any, \"campaign\": ID, \"days\": N}");
            return null;
        }
        problems.onlyKeys(body, at, new LinkedHashSet<>(List.of("kind", "campaign", "days")));
        Set<String> kinds = kind(body, at, ENGAGEMENT, "open, click or any");
        Optional<Long> campaign = Optional.empty();
        if (body.has("campaign")) {
            JsonNode c = body.get("campaign");
            if (!c.canConvertToExactIntegral() || !c.canConvertToLong() || c.longValue() < 1) {
                problems.add(at + ".campaign", "must be a campaign's id (a whole number from 1)");
            } else {
                campaign = Optional.of(c.longValue());
            }
        }
        Optional<Integer> days = days(body, at);
        return kinds == null ? null : new SegmentFilter.Engaged(kinds, campaign, days);
    }

    private SegmentFilter bounced(JsonNode body, String at) {
        if (!body.isObject()) {
            problems.add(at, "must be an object: {\"kind\": hard|soft|any, \"days\": N}");
            return null;
        }
        problems.onlyKeys(body, at, new LinkedHashSet<>(List.of("kind", "days")));
        Set<String> kinds = kind(body, at, BOUNCES, "hard, soft or any");
        Optional<Integer> days = days(body, at);
        return kinds == null ? null : new SegmentFilter.Bounced(kinds, days);
    }

    private Set<String> kind(JsonNode body, String at, Map<String, Set<String>> kinds, String expected) {
        Optional<String> k = word(body.get("kind"), at + ".kind", expected);
        if (k.isPresent() && !kinds.containsKey(k.get())) {
            problems.add(at + ".kind", "must be " + expected);
            return null;
        }
        return k.map(kinds::get).orElse(null);
    }

    private Optional<Integer> days(JsonNode body, String at) {
        if (!body.has("days")) {
            return Optional.empty();
        }
        JsonNode d = body.get("days");
        if (!d.canConvertToExactIntegral() || !d.canConvertToInt() || d.intValue() < 1 || d.intValue() > MAX_DAYS) {
            problems.add(at + ".days", "must be a whole number of days from 1 to " + MAX_DAYS);
            return Optional.empty();
        }
        return Optional.of(d.intValue());
    }

    /** A keyword: text, missing or not is a problem naming what was expected. */
    private Optional<String> word(JsonNode v, String at, String expected) {
        if (v == null || !v.isTextual()) {
            problems.add(at, "must be " + expected);
            return Optional.empty();
        }
        return Optional.of(v.textValue());
    }

    /** A non-blank text of at most {@value #MAX_TEXT} characters. */
    private Optional<String> text(JsonNode v, String at) {
        if (v == null || !v.isTextual()) {
            problems.add(at, "must be text");
            return Optional.empty();
        }
        if (v.textValue().isEmpty()) {
            problems.add(at, "must not be empty");
            return Optional.empty();
        }
        return longText(v.textValue(), at);
    }

    /** A text (at most {@value #MAX_TEXT} characters), a number or true/false: what an attribute holds. */
    private Optional<Object> scalar(JsonNode v, String at) {
        if (v.isTextual()) {
            return longText(v.textValue(), at).map(s -> s);
        }
        if (v.isBoolean()) {
            return Optional.of(v.booleanValue());
        }
        if (v.isNumber()) {
            return number(v, at).map(n -> n);
        }
        problems.add(at, "must be text, a number or true/false");
        return Optional.empty();
    }

    private Optional<String> longText(String s, String at) {
        if (s.length() > MAX_TEXT) {
            problems.add(at, "is longer than " + MAX_TEXT + " characters");
            return Optional.empty();
        }
        return Optional.of(s);
    }

    private Optional<BigDecimal> number(JsonNode v, String at) {
        BigDecimal n = v.decimalValue().stripTrailingZeros();
        if (n.scale() > MAX_FRACTION_DIGITS || n.precision() - n.scale() > MAX_INTEGER_DIGITS) {
            problems.add(at, "must have at most " + MAX_INTEGER_DIGITS + " digits before the point and " + MAX_FRACTION_DIGITS + " after");
            return Optional.empty();
        }
        return Optional.of(n.scale() < 0 ? n.setScale(0) : n);
    }
}
