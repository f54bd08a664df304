/**
 * Type checks as `tsc` makes them, in this process: the compiler is loaded once, and TypeScript's
 * own declarations of the standard library (lib.dom.d.ts alone is over a megabyte) are parsed once
 * for every check, where each `tsc` process read and parsed them again. What is checked and what is
 * reported are tsc's: the same program, the same diagnostics, printed as tsc prints them to a pipe.
 */
import path from 'node:path';
import ts from 'typescript';

export interface TypeCheck {
  /** tsc's report: one `file(line,col): error TS…` per problem, '' when there is none. */
  report: string;
  /** The files the program read (tsc's `--listFiles`). */
  files: string[];
}

const LIB_DIR = path.dirname(ts.getDefaultLibFilePath({}));
/** Paths as tsc writes them, from the current directory. */
const FORMAT: ts.FormatDiagnosticsHost = { getCanonicalFileName: (file) => file, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' };
const parsedLibs = new Map<string, ts.SourceFile>();

/** A host that reads like tsc's and keeps each parsed library file for the checks after. */
function hostFor(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    if (path.dirname(fileName) !== LIB_DIR) return read(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    // How a file is parsed depends on these, not on the rest of the options.
    const how = typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions };
    const key = `${how.languageVersion}:${how.impliedNodeFormat}:${how.jsDocParsingMode}:${fileName}`;
    let file = parsedLibs.get(key);
    if (!file) {
      file = read(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
      if (file) parsedLibs.set(key, file);
    }
    return file;
  };
  return host;
}

function checkProgram(rootNames: readonly string[], options: ts.CompilerOptions, configErrors: readonly ts.Diagnostic[] = []): TypeCheck {
  const host = hostFor(options);
  const program = ts.createProgram({ rootNames, options, host });
  const diagnostics = [...configErrors, ...ts.getPreEmitDiagnostics(program)];
  return {
    report: ts.formatDiagnostics(diagnostics, FORMAT),
    files: program.getSourceFiles().map((file) => path.resolve(file.fileName)),
  };
}

/** `tsc -p <tsconfig.json>`: the project's files with its options. */
export function checkProject(configFile: string): TypeCheck {
  const unrecoverable: ts.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => unrecoverable.push(d) });
  if (!parsed) return { report: ts.formatDiagnostics(unrecoverable, FORMAT), files: [] };
  return checkProgram(parsed.fileNames, parsed.options, parsed.errors);
}

/** `tsc` on `files` with options written as in a tsconfig.json (`"module": "NodeNext"` and so on). */
export function checkFiles(files: readonly string[], compilerOptions: Record<string, unknown>, basePath: string): TypeCheck {
  const { options, errors } = ts.convertCompilerOptionsFromJson(compilerOptions, basePath);
  return checkProgram(files, options, errors);
}
