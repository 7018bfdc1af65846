package dev.mailrun.mail.template;

import io.pebbletemplates.pebble.node.ArgumentsNode;
import io.pebbletemplates.pebble.node.AutoEscapeNode;
import io.pebbletemplates.pebble.node.BlockNode;
import io.pebbletemplates.pebble.node.BodyNode;
import io.pebbletemplates.pebble.node.ForNode;
import io.pebbletemplates.pebble.node.IfNode;
import io.pebbletemplates.pebble.node.IncludeNode;
import io.pebbletemplates.pebble.node.MacroNode;
import io.pebbletemplates.pebble.node.NamedArgumentNode;
import io.pebbletemplates.pebble.node.Node;
import io.pebbletemplates.pebble.node.PositionalArgumentNode;
import io.pebbletemplates.pebble.node.PrintNode;
import io.pebbletemplates.pebble.node.RootNode;
import io.pebbletemplates.pebble.node.SetNode;
import io.pebbletemplates.pebble.node.TestInvocationExpression;
import io.pebbletemplates.pebble.node.expression.AndExpression;
import io.pebbletemplates.pebble.node.expression.ArrayExpression;
import io.pebbletemplates.pebble.node.expression.BinaryExpression;
import io.pebbletemplates.pebble.node.expression.ContextVariableExpression;
import io.pebbletemplates.pebble.node.expression.Expression;
import io.pebbletemplates.pebble.node.expression.FilterExpression;
import io.pebbletemplates.pebble.node.expression.FilterInvocationExpression;
import io.pebbletemplates.pebble.node.expression.FunctionOrMacroInvocationExpression;
import io.pebbletemplates.pebble.node.expression.GetAttributeExpression;
import io.pebbletemplates.pebble.node.expression.MapExpression;
import io.pebbletemplates.pebble.node.expression.PositiveTestExpression;
import io.pebbletemplates.pebble.node.expression.TernaryExpression;
import io.pebbletemplates.pebble.node.expression.UnaryExpression;
import io.pebbletemplates.pebble.utils.Pair;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the merge fields a compiled template reads, by walking Pebble's syntax tree.
 *
 * <p>Walking the tree (rather than matching {@code {{ … }}} with a pattern) is what makes loop
 * variables, {@code set} variables and macro arguments local, and sees fields nested in filters,
 * conditions and function arguments. Pebble's own visitor dispatches expressions to a single
 * catch-all method, so the walk is done here with explicit cases.
 */
final class FieldScanner {

    /** Names Pebble resolves itself; never merge fields. */
    private static final Set<String> PEBBLE_NAMES = Set.of("_self", "_context", "_charset");

    private final List<FieldUse> uses = new ArrayList<>();

    private FieldScanner() {
    }

    static List<FieldUse> scan(Node root) {
        FieldScanner scanner = new FieldScanner();
        scanner.node(root, new Scope(Set.of(), Set.of()));
        return List.copyOf(scanner.uses);
    }

    /**
     * Names bound inside the template, and names whose use is guarded by {@code is defined}.
     * {@code set} adds to the scope it runs in, as it does in Pebble, so the sets are mutable.
     */
    private record Scope(Set<String> locals, Set<String> guarded) {
        Scope {
            locals = new HashSet<>(locals);
            guarded = new HashSet<>(guarded);
        }

        Scope withLocals(String... names) {
            Scope inner = new Scope(locals, guarded);
            inner.locals.addAll(List.of(names));
            return inner;
        }

        Scope withGuarded(Set<String> names) {
            Scope inner = new Scope(locals, guarded);
            inner.guarded.addAll(names);
            return inner;
        }
    }

    private void node(Node node, Scope scope) {
        if (node == null) {
            return;
        }
        if (node instanceof Expression<?> expression) {
            expression(expression, scope, false);
        } else if (node instanceof RootNode root) {
            node(root.getBody(), scope);
        } else if (node instanceof BodyNode body) {
            body.getChildren().forEach(child -> node(child, scope));
        } else if (node instanceof PrintNode print) {
            expression(print.getExpression(), scope, false);
        } else if (node instanceof IfNode ifNode) {
            for (Pair<Expression<?>, BodyNode> branch : ifNode.getConditionsWithBodies()) {
                expression(branch.getLeft(), scope, false);
                node(branch.getRight(), scope.withGuarded(definedIn(branch.getLeft())));
            }
            node(ifNode.getElseBody(), scope);
        } else if (node instanceof ForNode forNode) {
            expression(forNode.getIterable(), scope, false);
            node(forNode.getBody(), scope.withLocals(forNode.getIterationVariable(), "loop"));
            node(forNode.getElseBody(), scope);
        } else if (node instanceof SetNode set) {
            expression(set.getValue(), scope, false);
            scope.locals.add(set.getName());
        } else if (node instanceof MacroNode macro) {
            macroNode(macro, scope);
        } else if (node instanceof AutoEscapeNode autoEscape) {
            node(autoEscape.getBody(), scope);
        } else if (node instanceof BlockNode block) {
            node(block.getBody(), scope);
        } else if (node instanceof IncludeNode include) {
            expression(include.getIncludeExpression(), scope, false);
        } else if (node instanceof ArgumentsNode arguments) {
            arguments(arguments, scope);
        }
        // TextNode, FlushNode and the inheritance nodes read no fields.
    }

    private void macroNode(MacroNode macro, Scope scope) {
        List<String> parameters = new ArrayList<>();
        ArgumentsNode args = macro.getArgs();
        if (args != null) {
            if (args.getPositionalArgs() != null) {
                for (PositionalArgumentNode positional : args.getPositionalArgs()) {
                    if (positional.getValueExpression() instanceof ContextVariableExpression variable) {
                        parameters.add(variable.getName());
                    }
                }
            }
            if (args.getNamedArgs() != null) {
                for (NamedArgumentNode named : args.getNamedArgs()) {
                    parameters.add(named.getName());
                }
            }
        }
        node(macro.getBody(), scope.withLocals(parameters.toArray(String[]::new)));
    }

    private void arguments(ArgumentsNode arguments, Scope scope) {
        if (arguments == null) {
            return;
        }
        if (arguments.getPositionalArgs() != null) {
            arguments.getPositionalArgs().forEach(arg -> expression(arg.getValueExpression(), scope, false));
        }
        if (arguments.getNamedArgs() != null) {
            arguments.getNamedArgs().forEach(arg -> expression(arg.getValueExpression(), scope, false));
        }
    }

    /**
     * @param optional the value may be absent without failing the render: the left side of
     *                 {@code default(...)} or of {@code is defined}
     */
    private void expression(Expression<?> expression, Scope scope, boolean optional) {
        if (expression == null) {
            return;
        }
        if (expression instanceof ContextVariableExpression variable) {
            String name = variable.getName();
            if (!scope.locals.contains(name) && !PEBBLE_NAMES.contains(name)) {
                uses.add(new FieldUse(name, variable.getLineNumber(), optional || scope.guarded.contains(name)));
            }
        } else if (expression instanceof FilterExpression filter) {
            boolean isDefault = filter.getRightExpression() instanceof FilterInvocationExpression invocation
                    && "default".equals(invocation.getFilterName());
            expression(filter.getLeftExpression(), scope, optional || isDefault);
            expression(filter.getRightExpression(), scope, false);
        } else if (expression instanceof PositiveTestExpression test) {
            expression(test.getLeftExpression(), scope, optional || isDefinedTest(test));
            expression(test.getRightExpression(), scope, false);
        } else if (expression instanceof BinaryExpression<?> binary) {
            expression(binary.getLeftExpression(), scope, false);
            expression(binary.getRightExpression(), scope, false);
        } else if (expression instanceof GetAttributeExpression attribute) {
            // user.name | default("x") tolerates a missing user, so optionality passes to the root.
            expression(attribute.getNode(), scope, optional);
            expression(attribute.getAttributeNameExpression(), scope, false);
            arguments(attribute.getArgumentsNode(), scope);
        } else if (expression instanceof UnaryExpression unary) {
            expression(unary.getChildExpression(), scope, false);
        } else if (expression instanceof TernaryExpression ternary) {
            expression(ternary.getExpression1(), scope, false);
            expression(ternary.getExpression2(), scope, false);
            expression(ternary.getExpression3(), scope, false);
        } else if (expression instanceof FilterInvocationExpression invocation) {
            arguments(invocation.getArgs(), scope);
        } else if (expression instanceof FunctionOrMacroInvocationExpression invocation) {
            arguments(invocation.getArguments(), scope);
        } else if (expression instanceof TestInvocationExpression invocation) {
            arguments(invocation.getArgs(), scope);
        } else if (expression instanceof ArrayExpression array) {
            array.getValues().forEach(value -> expression(value, scope, false));
        } else if (expression instanceof MapExpression map) {
            for (Map.Entry<Expression<?>, Expression<?>> entry : map.getEntries().entrySet()) {
                expression(entry.getKey(), scope, false);
                expression(entry.getValue(), scope, false);
            }
        }
        // Literals, parent() and block() read no fields.
    }

    private static boolean isDefinedTest(PositiveTestExpression test) {
        return test.getRightExpression() instanceof TestInvocationExpression invocation
                && "defined".equals(invocation.getTestName());
    }

    /** Fields that an if-condition proves present in its branch: {@code a is defined and b is defined}. */
    private static Set<String> definedIn(Expression<?> condition) {
        Set<String> names = new HashSet<>();
        if (condition instanceof PositiveTestExpression test && isDefinedTest(test)
                && test.getLeftExpression() instanceof ContextVariableExpression variable) {
            names.add(variable.getName());
        } else if (condition instanceof AndExpression and) {
            names.addAll(definedIn(and.getLeftExpression()));
            names.addAll(definedIn(and.getRightExpression()));
        }
        return names;
    }
}
