"""The visibility policy: a rule table (`rules`) and the one step that projects a transcript through it into
what each view may show (`projection`). Fail closed: no rule positively classifying a message as user-visible
means the default view hides it."""
from viewer.model.words import SHOW_AS, VIEWS
from viewer.policy.projection import (SHOWN_IN_FULL, Decision, Marker, Projection, debug_json, default_json,
                                      iter_visible_entries, marker_json, visible_entries)
from viewer.policy.rules import (POLICY_VERSION, RULES, RULES_BY_NAME, Rule, default_rules, rule_for,
                                 rule_on_branch)
from viewer.policy.said import Exchange, Said

__all__ = ["POLICY_VERSION", "RULES", "RULES_BY_NAME", "SHOWN_IN_FULL", "SHOW_AS", "VIEWS", "Decision", "Exchange",
           "Marker", "Projection", "Rule", "Said", "debug_json", "default_json", "default_rules",
           "iter_visible_entries", "marker_json", "rule_for", "rule_on_branch", "visible_entries"]
