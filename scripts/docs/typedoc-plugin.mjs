// TypeDoc plugin (loaded by typedoc.json). It names the modules after the import specifiers, and
// enforces two house rules TypeDoc cannot express with options alone:
// 1. every symbol exported from an entry point carries an `@example` block (STYLE.md rule 7);
// 2. every property of an exported interface, class or object type is documented, since that
//    comment is what users see on hover. TypeDoc's `requiredToBeDocumented: ["Property"]` would
//    also demand comments on the keys of `as const` tables such as `InvoiceStatus.DRAFT`, which
//    explain nothing beyond their name, so properties are checked here instead.
// Both report through the validation logger, so `treatValidationWarningsAsErrors` in
// typedoc.json turns a finding into a failed build.
import { relative } from 'node:path';
import { Application, Converter, ParameterType, ReflectionKind } from 'typedoc';

/** Kinds whose top-level exports need an example. Re-exports (`Reference`) are checked at their target. */
const KINDS_NEEDING_EXAMPLE =
  ReflectionKind.Class |
  ReflectionKind.Interface |
  ReflectionKind.TypeAlias |
  ReflectionKind.Function |
  ReflectionKind.Variable |
  ReflectionKind.Enum |
  ReflectionKind.Namespace;

function commentsOf(reflection) {
  const comments = [reflection.comment];
  // A function's doc comment lives on its signatures; an overloaded one may document any of them.
  for (const signature of reflection.signatures ?? []) comments.push(signature.comment);
  // `const x = () => …` keeps its signatures on the type.
  for (const signature of reflection.type?.declaration?.signatures ?? []) comments.push(signature.comment);
  return comments.filter(Boolean);
}

function hasExample(reflection) {
  return commentsOf(reflection).some((comment) =>
    comment.blockTags.some(
      (tag) => tag.tag === '@example' && tag.content.some((part) => part.text.trim() !== ''),
    ),
  );
}

function topLevelExports(project) {
  // One entry point gives a project with the exports as direct children; several give modules.
  const modules = project.children?.some((child) => child.kindOf(ReflectionKind.Module))
    ? project.children.filter((child) => child.kindOf(ReflectionKind.Module))
    : [project];
  return modules.flatMap((module) => (module.children ?? []).map((child) => ({ module, child })));
}

function undocumentedProperties(project) {
  const found = [];
  for (const property of project.getReflectionsByKind(ReflectionKind.Property)) {
    // Inherited members are checked where they are declared; external ones are not ours.
    if (property.inheritedFrom || property.hasComment()) continue;
    const symbol = project.getSymbolIdFromReflection(property);
    if (!symbol || symbol.packageName !== project.packageName) continue;
    let owner = property.parent;
    let insideValueOrParameter = false;
    while (owner) {
      if (owner.kindOf(ReflectionKind.Variable | ReflectionKind.Parameter)) insideValueOrParameter = true;
      owner = owner.parent;
    }
    if (insideValueOrParameter) continue;
    found.push(`${property.getFriendlyFullName()} (${symbol.packagePath})`);
  }
  return found;
}

/**
 * Names each entry point's module by the specifier users import (`invoicing-sdk/testing`) instead
 * of its file name (`testing`), from the `entryPointNames` option in typedoc.json. Done here rather
 * than with `@module` tags so the entry files stay free of docs-tool markup.
 */
function nameModules(app, project) {
  const names = app.options.getValue('entryPointNames') ?? {};
  for (const module of project.children ?? []) {
    if (!module.kindOf(ReflectionKind.Module)) continue;
    const file = module.sources?.[0]?.fullFileName;
    const wanted = file === undefined ? undefined : names[relative(process.cwd(), file).split('\\').join('/')];
    if (wanted !== undefined) module.name = wanted;
  }
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.options.addDeclaration({
    name: 'entryPointNames',
    help: 'Module name per entry point file, e.g. { "src/testing/index.ts": "invoicing-sdk/testing" }.',
    type: ParameterType.Mixed,
    defaultValue: {},
  });
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => nameModules(app, context.project));
  app.on(Application.EVENT_VALIDATE_PROJECT, (project) => {
    if (!app.options.getValue('validation').notDocumented) return;
    const missing = [];
    for (const { module, child } of topLevelExports(project)) {
      if (!child.kindOf(KINDS_NEEDING_EXAMPLE) || hasExample(child)) continue;
      const source = child.sources?.[0];
      const where = source ? ` (${relative(process.cwd(), source.fullFileName)}:${source.line})` : '';
      missing.push(`${module === project ? '' : `${module.name}: `}${child.name}${where}`);
    }
    for (const name of missing) {
      app.logger.validationWarning(`${name} is exported but its doc comment has no @example block.`);
    }
    for (const name of undocumentedProperties(project)) {
      app.logger.validationWarning(`${name} is a public property without a doc comment.`);
    }
  });
}
