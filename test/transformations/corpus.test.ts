// Every JST document of the project's fixtures and of the real exports (the corpus, when it is
// there) loads and runs on inputs built from its incoming schemas, without an unsupported step or
// method; some are run on hand-worked inputs against outputs worked out by hand from their steps.
import { describe, expect, it } from 'vitest';
import { sampleFromSchema } from '../../core/contract/transformations';
import { TransformationError } from '../../core/transformations/errors';
import { checkDocument, runTransformation } from '../../core/transformations/interpreter';
import type { JstDocument } from '../../core/transformations/types';
import { corpus, corpusDoc, fixtures, CORPUS_TAG, noteCorpusSkip } from './corpus';

const available = corpus.present;
noteCorpusSkip('the JST documents of the real exports');

describe.each([
  { source: fixtures, count: 4 },
  { source: corpus, count: 22 },
])('the JST documents $source.tag', ({ source, count }) => {
  const docs = source.transformations();

  it.skipIf(!source.present)(`holds the ${count} documents`, () => {
    expect(docs.length).toBe(count);
  });

  for (const { doc } of docs) {
    it(`"${doc.name}" has only step types and methods the interpreter runs`, () => {
      expect(() => checkDocument(doc as unknown as JstDocument)).not.toThrow();
    });

    it(`"${doc.name}" runs on inputs built from its incoming schemas`, () => {
      const incoming = Object.fromEntries(doc.incoming.map((schema) => [schema.$id, sampleFromSchema(schema)]));
      try {
        const { outgoing } = runTransformation(doc, incoming);
        expect(Object.keys(outgoing).sort()).toEqual(doc.outgoing.map((s) => s.$id).sort());
      } catch (error) {
        // A sample input may make a step fail (an empty array has no item 0): that is the
        // document's own logic, never an unsupported step or method, nor a broken wiring.
        expect(error).toBeInstanceOf(TransformationError);
        expect((error as TransformationError).reason).toBe('step-failed');
      }
    });
  }
});

describe.skipIf(!available)(`corpus documents on hand-worked inputs ${CORPUS_TAG}`, () => {
  it('Build VPC Filter: the VPC id in a one-item filter list', () => {
    const { outgoing } = runTransformation(corpusDoc('Build VPC Filter'), { vpcId: 'vpc-0abc' });
    expect(outgoing).toEqual({ vpcFilter: [{ Name: 'vpc-id', Value: 'vpc-0abc' }] });
  });

  it('Build CR Update Payload - ServiceNow: state name to its number, the first response id', () => {
    const { outgoing } = runTransformation(corpusDoc('Build CR Update Payload - ServiceNow'), {
      changeRequestResponse: { response: [{ id: 'a68d46', current_state: '-5' }] },
      comments: 'rolled out',
      state: 'Closed',
    });
    expect(outgoing).toEqual({ crSysId: 'a68d46', crUpdatePayload: { comments: 'rolled out', state: -6 } });
  });

  it('Build CR Update Payload - ServiceNow: an unknown state falls back to the current state', () => {
    const { outgoing } = runTransformation(corpusDoc('Build CR Update Payload - ServiceNow'), {
      changeRequestResponse: { response: [{ id: 'x1', current_state: '-3' }] },
      comments: 'c',
      state: 'paused',
    });
    expect(outgoing.crUpdatePayload).toEqual({ comments: 'c', state: -3 });
  });

  it('Process AWS Blocked Traffic Event - Reset Inputs: a /32 CIDR and the group-name filter', () => {
    const doc = corpusDoc('Process AWS Blocked Traffic Event - Reset Inputs') as unknown as JstDocument;
    const { outgoing } = runTransformation(doc, { formData: { sourceIP: '10.1.2.3', awsSecurityGroup: 'web-sg', awsEC2Adapter: 'AWS-EC2' } });
    expect(outgoing).toEqual({
      cidrSourceIP: '10.1.2.3/32',
      awsEC2Adapter: 'AWS-EC2',
      securityGroupSearchData: [{ Name: 'group-name', Value: 'web-sg' }],
    });
  });

  it('Build SG Delete Array: every group but the default one, as delete requests', () => {
    const doc = corpusDoc('Build SG Delete Array') as unknown as JstDocument;
    const { outgoing } = runTransformation(doc, {
      sgResponse: {
        response: {
          DescribeSecurityGroupsResponse: {
            securityGroupInfo: {
              item: [
                { groupId: 'sg-1', groupName: 'default' },
                { groupId: 'sg-2', groupName: 'web' },
                { groupId: 'sg-3', groupName: 'db' },
              ],
            },
          },
        },
      },
    });
    expect(outgoing).toEqual({ sgDeleteArray: [{ groupId: 'sg-2' }, { groupId: 'sg-3' }] });
  });

  it('Process Instance Status: true only when the first instance is running and both its checks are ok', () => {
    const doc = corpusDoc('Process Instance Status') as unknown as JstDocument;
    const status = (name: string, system = 'ok', instance = 'ok') => ({
      describeInstanceResponse: {
        response: { DescribeInstanceStatusResponse: { instanceStatusSet: { item: [{ instanceState: { name }, systemStatus: { status: system }, instanceStatus: { status: instance } }] } } },
      },
    });
    expect(runTransformation(doc, status('running')).outgoing).toEqual({ launchComplete: true });
    expect(runTransformation(doc, status('pending')).outgoing).toEqual({ launchComplete: false });
    expect(runTransformation(doc, status('running', 'initializing')).outgoing).toEqual({ launchComplete: false });
  });
});

describe('fixture documents on hand-worked inputs', () => {
  const doc = (name: string) => fixtures.transformation(name) as unknown as JstDocument;

  it('Build Tag Filter - Example: the name in a one-item filter list, built by a function', () => {
    expect(runTransformation(doc('Build Tag Filter - Example'), { deviceName: 'core-1' }).outgoing).toEqual({ tagFilter: [{ Name: 'tag:Name', Values: 'core-1' }] });
  });

  it('Build Change Update Payload - Example: state name to its number, else the current state; the first response id', () => {
    const run = (state: string) =>
      runTransformation(doc('Build Change Update Payload - Example'), { changeRequest: { response: [{ id: 'chg-7', current_state: '2' }] }, comments: 'rolled out', state }).outgoing;
    expect(run('Approved')).toEqual({ changeId: 'chg-7', updatePayload: { comments: 'rolled out', state: 3 } });
    expect(run('paused')).toEqual({ changeId: 'chg-7', updatePayload: { comments: 'rolled out', state: 2 } });
  });

  it('Build Change Update Payload - Example: a response that is no list fails at its step, naming it', () => {
    const run = () => runTransformation(doc('Build Change Update Payload - Example'), { changeRequest: { response: null }, comments: 'x', state: 'new' }, { validateIncoming: false });
    expect(run).toThrow('step 24 (Array.getIndex), at pointer "/args/0/value": Array.getIndex needs an array as its first argument, got null');
  });

  it('Process Instance State - Example: true only when the first instance runs and its check is ok', () => {
    const status = (name: string, check = 'ok') => ({
      statusResponse: { response: { DescribeInstanceStatusResponse: { instanceStatusSet: { item: [{ instanceState: { name }, instanceStatus: { status: check } }] } } } },
    });
    expect(runTransformation(doc('Process Instance State - Example'), status('running')).outgoing).toEqual({ launchComplete: true });
    expect(runTransformation(doc('Process Instance State - Example'), status('pending')).outgoing).toEqual({ launchComplete: false });
    expect(runTransformation(doc('Process Instance State - Example'), status('running', 'impaired')).outgoing).toEqual({ launchComplete: false });
  });

  it('Build Instance Tags - Example: the instance id as a list and a Name tag from the VPC name', () => {
    const launchResponse = { response: { RunInstancesResponse: { instancesSet: { item: [{ instanceId: 'i-0abc' }] } } } };
    expect(runTransformation(doc('Build Instance Tags - Example'), { vpcName: 'lab', launchResponse }).outgoing).toEqual({
      ec2Tags: [{ Key: 'Name', Value: 'Web Server for lab' }],
      instanceIdArray: ['i-0abc'],
    });
  });
});
