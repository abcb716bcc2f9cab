//! The search tree: one tree over every world the search imagines (single-observer
//! information-set Monte Carlo tree search).
//!
//! A node is reached by a sequence of orders (of any side) from the decision. A world
//! decides which of a node's children may be tried in it — those whose order is legal
//! there for the side to act — and each such child counts one more *availability*; UCB1
//! picks among them with the parent's availability in place of its visits, so an order
//! legal in few worlds is not judged by worlds where it could not be given. Scores are the
//! searching side's; at an enemy's node they count negated.
//!
//! Progressive widening keeps a node with hundreds of legal orders (the open table's moves)
//! from spreading its visits thin: a node visited `n` times may have at most
//! ⌈[`WIDEN_C`]·(n + 1)^[`WIDEN_POWER`]⌉ children, and the next is added only once that
//! bound rises. New children come in the order of a prior: at the decision itself the
//! greedy policy's score of each order, elsewhere a random draw. At the decision the prior
//! also biases the choice (progressive bias: [`BIAS`]·prior/(visits + 1) on top of UCB1), so
//! a short search plays like the greedy policy until its iterations show better.

use grognard_kernel::action::Action;
use grognard_kernel::ids::SideId;

/// How widely a node opens: see the module doc.
pub const WIDEN_C: f64 = 1.0;
/// How much the prior counts before visits outweigh it.
pub const BIAS: f64 = 1.0;
/// How fast a node's number of children grows with its visits.
pub const WIDEN_POWER: f64 = 0.5;
/// UCB1's exploration constant (scores lie in −1..1).
pub const EXPLORE: f64 = 0.7;
/// How many standard errors better than the prior's first order another must score to be
/// given instead (see [`Tree::chosen`]).
pub const SURE: f64 = 2.0;

/// One node: the order that led to it and what the search learnt below it.
#[derive(Clone, Debug)]
pub struct Node {
    /// The order that leads here from the parent (`EndPhase` at the root).
    pub action: Action,
    /// The side that gave it.
    pub actor: SideId,
    /// Children, by index into [`Tree::nodes`].
    pub children: Vec<usize>,
    /// Iterations through this node.
    pub visits: u32,
    /// Iterations in which this node could have been chosen.
    pub avail: u32,
    /// Sum of the scores of the iterations through it (the searching side's).
    pub total: f64,
    /// Sum of their squares (for how far the mean can be trusted).
    pub total_sq: f64,
    /// The prior's opinion of the order, 0 to 1 (0 below the decision).
    pub prior: f64,
}

impl Node {
    /// The mean score of the iterations through it (0 before any).
    #[must_use]
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / f64::from(self.visits)
        }
    }

    /// The standard error of [`Node::mean`] (infinite below two visits).
    #[must_use]
    pub fn error(&self) -> f64 {
        if self.visits < 2 {
            return f64::INFINITY;
        }
        let n = f64::from(self.visits);
        let var = ((self.total_sq - self.total * self.total / n) / (n - 1.0)).max(0.0);
        (var / n).sqrt()
    }

    /// The mean with the prior's bias, which fades as visits grow.
    #[must_use]
    pub fn biased(&self) -> f64 {
        self.mean() + BIAS * self.prior / f64::from(self.visits + 1)
    }
}

/// The tree; node 0 is the decision.
#[derive(Clone, Debug)]
pub struct Tree {
    /// Every node.
    pub nodes: Vec<Node>,
    /// The searching side.
    pub side: SideId,
}

/// What to do at a node in one world.
pub enum Step {
    /// Add the order as a new child (the iteration then rolls out).
    Expand(Action),
    /// Go down to this existing child.
    Descend(usize),
}

impl Tree {
    /// A tree for a decision of `side`.
    #[must_use]
    pub fn new(side: SideId) -> Self {
        Self {
            nodes: vec![Node {
                action: Action::EndPhase,
                actor: side,
                children: Vec::new(),
                visits: 0,
                avail: 0,
                total: 0.0,
                total_sq: 0.0,
                prior: 0.0,
            }],
            side,
        }
    }

    /// How many children a node visited `visits` times may have.
    #[must_use]
    pub fn width(visits: u32) -> usize {
        (WIDEN_C * f64::from(visits + 1).powf(WIDEN_POWER)).ceil() as usize
    }

    /// What to do at `node` where `who` acts and `legal` are its orders in this world;
    /// `prior(untried)` gives the index of the untried order to add next. Counts the
    /// availability of the children it chose among. `None` when `legal` is empty.
    pub fn step(
        &mut self,
        node: usize,
        who: SideId,
        legal: &[Action],
        prior: &mut dyn FnMut(&[&Action]) -> usize,
    ) -> Option<Step> {
        let children = self.nodes.get(node)?.children.clone();
        let available: Vec<usize> = children
            .iter()
            .copied()
            .filter(|c| self.nodes[*c].actor == who && legal.contains(&self.nodes[*c].action))
            .collect();
        let untried: Vec<&Action> = legal
            .iter()
            .filter(|a| !available.iter().any(|c| self.nodes[*c].action == **a))
            .collect();
        let visits = self.nodes[node].visits;
        if !untried.is_empty() && (available.len() < Self::width(visits) || available.is_empty()) {
            let i = prior(&untried).min(untried.len() - 1);
            return Some(Step::Expand(untried[i].clone()));
        }
        if available.is_empty() {
            return None;
        }
        let sign = if who == self.side { 1.0 } else { -1.0 };
        let mut best = available[0];
        let mut best_value = f64::NEG_INFINITY;
        for c in &available {
            let n = &mut self.nodes[*c];
            n.avail += 1;
            let explore = EXPLORE * (f64::from(n.avail).ln() / f64::from(n.visits.max(1))).sqrt();
            let value = if n.visits == 0 {
                f64::INFINITY
            } else {
                sign * n.mean() + BIAS * n.prior / f64::from(n.visits + 1) + explore
            };
            if value > best_value {
                best_value = value;
                best = *c;
            }
        }
        Some(Step::Descend(best))
    }

    /// Adds a child of `parent` for `action` given by `actor`, with the prior's opinion of
    /// it (0 to 1); its index.
    pub fn add(&mut self, parent: usize, actor: SideId, action: Action, prior: f64) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node {
            action,
            actor,
            children: Vec::new(),
            visits: 0,
            avail: 1,
            total: 0.0,
            total_sq: 0.0,
            prior,
        });
        self.nodes[parent].children.push(id);
        id
    }

    /// Counts one iteration's `score` on every node of `path`.
    pub fn back_up(&mut self, path: &[usize], score: f64) {
        for n in path {
            if let Some(node) = self.nodes.get_mut(*n) {
                node.visits += 1;
                node.total += score;
                node.total_sq += score * score;
            }
        }
    }

    /// The decision's children, most visited first (ties: the better biased mean, then the
    /// earlier added).
    #[must_use]
    pub fn ranked(&self) -> Vec<&Node> {
        let mut kids: Vec<&Node> = self.nodes[0]
            .children
            .iter()
            .map(|c| &self.nodes[*c])
            .collect();
        kids.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.biased().total_cmp(&a.biased()))
        });
        kids
    }

    /// The decision's child to give: the one whose order is `default` (the prior's first,
    /// the greedy policy's choice) unless the most visited child is another whose mean beats
    /// it by more than [`SURE`] standard errors of the difference. Rollouts score with much
    /// noise and a short search visits each child a few dozen times, so the most visited
    /// child is often ahead by chance; the greedy choice is kept where the search cannot
    /// show better. `None` before any child.
    #[must_use]
    pub fn chosen(&self, default: Option<&Action>) -> Option<&Node> {
        let ranked = self.ranked();
        let best = *ranked.first()?;
        let Some(fallback) = default.and_then(|d| ranked.iter().find(|n| n.action == *d)) else {
            return Some(best);
        };
        let spread = best.error().hypot(fallback.error());
        if best.mean() - fallback.mean() > SURE * spread {
            Some(best)
        } else {
            Some(fallback)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grognard_kernel::ids::PieceId;

    fn face(i: u32) -> Action {
        Action::Gather { piece: PieceId(i) }
    }

    #[test]
    fn widening_adds_children_as_visits_grow() {
        assert_eq!(Tree::width(0), 1);
        assert!(Tree::width(99) >= 10);
        let mut t = Tree::new(SideId(0));
        let legal: Vec<Action> = (0..50).map(face).collect();
        let mut first = |_: &[&Action]| 0;
        // One child at once, then the node must be visited before a second.
        for _ in 0..1 {
            match t.step(0, SideId(0), &legal, &mut first) {
                Some(Step::Expand(a)) => {
                    t.add(0, SideId(0), a, 0.0);
                }
                _ => panic!("expected an expansion"),
            }
        }
        assert!(matches!(
            t.step(0, SideId(0), &legal, &mut first),
            Some(Step::Descend(_))
        ));
        assert_eq!(t.nodes[0].children.len(), 1);
    }

    #[test]
    fn an_order_not_legal_in_this_world_is_not_chosen() {
        let mut t = Tree::new(SideId(0));
        let a = t.add(0, SideId(0), face(1), 0.0);
        let b = t.add(0, SideId(0), face(2), 0.0);
        t.back_up(&[0, a], 1.0);
        t.back_up(&[0, b], -1.0);
        t.nodes[0].visits = 1000;
        // Only face(2) is legal here: the better child a is not available.
        let legal = vec![face(2)];
        let mut first = |_: &[&Action]| 0;
        assert!(
            matches!(t.step(0, SideId(0), &legal, &mut first), Some(Step::Descend(c)) if c == b)
        );
        assert_eq!(t.nodes[a].avail, 1, "a was not counted available");
    }

    #[test]
    fn the_default_is_kept_unless_another_order_is_surely_better() {
        let mut t = Tree::new(SideId(0));
        let greedy = t.add(0, SideId(0), face(1), 1.0);
        let other = t.add(0, SideId(0), face(2), 0.0);
        // The other is visited more and scores a little better, within the noise.
        for i in 0..20 {
            t.back_up(&[0, greedy], if i % 2 == 0 { 0.3 } else { -0.3 });
        }
        for i in 0..30 {
            t.back_up(&[0, other], if i % 2 == 0 { 0.35 } else { -0.25 });
        }
        assert_eq!(
            t.ranked()[0].action,
            face(2),
            "the other is the most visited"
        );
        let chosen = t.chosen(Some(&face(1))).map(|n| n.action.clone());
        assert_eq!(
            chosen,
            Some(face(1)),
            "a lead within the noise keeps the default"
        );
        // Far better and steady: the search's choice is given.
        for _ in 0..30 {
            t.back_up(&[0, other], 0.6);
        }
        let chosen = t.chosen(Some(&face(1))).map(|n| n.action.clone());
        assert_eq!(chosen, Some(face(2)));
        assert_eq!(t.nodes[greedy].visits, 20);
        // Without a default, the most visited.
        assert_eq!(t.chosen(None).map(|n| n.action.clone()), Some(face(2)));
    }

    #[test]
    fn an_enemy_node_picks_what_is_worst_for_the_searcher() {
        let mut t = Tree::new(SideId(0));
        let a = t.add(0, SideId(1), face(1), 0.0);
        let b = t.add(0, SideId(1), face(2), 0.0);
        for _ in 0..5 {
            t.back_up(&[a], 0.8);
            t.back_up(&[b], -0.8);
        }
        t.nodes[0].visits = 1000;
        let legal = vec![face(1), face(2)];
        let mut first = |_: &[&Action]| 0;
        assert!(
            matches!(t.step(0, SideId(1), &legal, &mut first), Some(Step::Descend(c)) if c == b)
        );
    }
}
