export {
  unpackCorpus,
  corporaDir,
  corpusArchive,
  listFiles,
} from './unpackCorpus';
export { expectPageInvariants, expectChunkInvariants } from './invariants';
